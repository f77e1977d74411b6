/**
 * An async iterator fed by pushes: the bridge between an event source that pushes (a database
 * notification, an upstream WebSocket) and a consumer that pulls with `for await` (graphql-js's
 * `subscribe`, graphql-ws's server). Values queue until pulled; `size` lets the owner apply its own
 * bound, since what "too many" means (events, bytes) is the owner's policy, not the queue's.
 */
export class PushQueue<T> implements AsyncIterableIterator<T> {
  readonly #values: T[] = [];
  #waiting: { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void } | undefined;
  #ended = false;
  #error: unknown;
  readonly #onReturn: (() => void) | undefined;
  #drained: (() => void)[] = [];

  /** `onReturn` runs once, when the consumer stops (`return()`) or the queue is ended. */
  constructor(onReturn?: () => void) {
    this.#onReturn = onReturn;
  }

  /** Values pushed and not yet pulled. */
  get size(): number {
    return this.#values.length;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Resolves once every value pushed so far has been pulled, or the queue ended: a producer's pace. */
  whenDrained(): Promise<void> {
    if (this.#values.length === 0 || this.#ended) return Promise.resolve();
    return new Promise((resolve) => this.#drained.push(resolve));
  }

  push(value: T): void {
    if (this.#ended) return;
    const waiting = this.#waiting;
    if (waiting) {
      this.#waiting = undefined;
      waiting.resolve({ value, done: false });
    } else {
      this.#values.push(value);
    }
  }

  /** Ends the iteration after the queued values; with an error, the consumer's next pull throws it. */
  end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error;
    this.#onReturn?.();
    this.#settleDrained();
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (!waiting) return;
    if (error !== undefined) waiting.reject(error);
    else waiting.resolve({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#values.length > 0) {
      const value = this.#values.shift() as T;
      if (this.#values.length === 0) this.#settleDrained();
      return Promise.resolve({ value, done: false });
    }
    if (this.#ended) {
      const error = this.#error;
      this.#error = undefined;
      return error !== undefined ? Promise.reject(error) : Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<T>> {
    this.#values.length = 0;
    this.#error = undefined;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error: unknown): Promise<IteratorResult<T>> {
    this.#values.length = 0;
    this.end();
    return Promise.reject(error);
  }

  #settleDrained(): void {
    const drained = this.#drained;
    this.#drained = [];
    for (const resolve of drained) resolve();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

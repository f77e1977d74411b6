import type { FormattedExecutionResult, GraphQLFormattedError } from "graphql";
import { PushQueue } from "@compliance-graph/graphql-execution";

/** Ends a subscription with errors already formatted (masked) for the client. */
export class SubscriptionEndedError extends Error {
  readonly code = "SUBSCRIPTION_ENDED";
  readonly errors: GraphQLFormattedError[];

  constructor(errors: GraphQLFormattedError[]) {
    super(errors[0]?.message ?? "The subscription ended.");
    this.errors = errors;
  }
}

/** The bytes of results waiting for one socket; the socket's owner decides what too many means. */
export interface ConnectionBudget {
  /** Results of `bytes` were queued for the socket; may close the socket. */
  add(bytes: number): void;
  /** Results of `bytes` were handed to the socket. */
  release(bytes: number): void;
  /** The member ended (completed, failed or returned): the subscription's place is free again. */
  ended(member: SubscriptionMember): void;
}

interface Queued {
  result: FormattedExecutionResult;
  bytes: number;
}

/**
 * One client's subscription: the async iterator a protocol handler sends from, fed by the shared
 * upstream subscription it belongs to. Every queued result is counted against the socket's budget
 * until the handler pulls it, so a reader that cannot keep up is noticed by its backlog.
 */
export class SubscriptionMember implements AsyncIterableIterator<FormattedExecutionResult> {
  readonly #queue: PushQueue<Queued>;
  readonly #budget: ConnectionBudget;
  #queuedBytes = 0;

  constructor(budget: ConnectionBudget, onReturn: (member: SubscriptionMember) => void) {
    this.#budget = budget;
    // Once ended, whatever is still queued no longer counts against the socket.
    this.#queue = new PushQueue(() => {
      this.#budget.release(this.#queuedBytes);
      this.#queuedBytes = 0;
      this.#budget.ended(this);
      onReturn(this);
    });
  }

  get ended(): boolean {
    return this.#queue.ended;
  }

  push(result: FormattedExecutionResult, bytes: number): void {
    if (this.#queue.ended) return;
    this.#queuedBytes += bytes;
    this.#queue.push({ result, bytes });
    this.#budget.add(bytes);
  }

  end(error?: SubscriptionEndedError): void {
    this.#queue.end(error);
  }

  async next(): Promise<IteratorResult<FormattedExecutionResult>> {
    const next = await this.#queue.next();
    if (next.done) return { value: undefined, done: true };
    if (!this.#queue.ended) {
      this.#queuedBytes -= next.value.bytes;
      this.#budget.release(next.value.bytes);
    }
    return { value: next.value.result, done: false };
  }

  async return(): Promise<IteratorResult<FormattedExecutionResult>> {
    await this.#queue.return();
    return { value: undefined, done: true };
  }

  async throw(error: unknown): Promise<IteratorResult<FormattedExecutionResult>> {
    await this.#queue.return();
    throw error;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

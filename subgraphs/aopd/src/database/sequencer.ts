import type { Logger } from "@compliance-graph/process-shell";

/**
 * Runs one sequencing job of this replica (numbering proof events, chaining audit entries): when a
 * write is announced (`request`), and every `sweepIntervalMs` in case an announcement was lost (a
 * LISTEN connection down, a replica that wrote and died before anyone sequenced). Requests during
 * a run coalesce into one more run, so a burst of writes costs a few sequencing statements, not one
 * per write. The job itself must be safe in several replicas at once and sequence everything
 * waiting (it does not learn what was announced). `spacingMs` makes a run that follows a run wait
 * that long first, so that under a steady stream of writes each run takes a batch rather than the
 * one or two entries written during the run before: fewer, larger transactions, at the price of
 * that much more delay.
 */
export class Sequencer<Result> {
  readonly #sequence: () => Promise<Result>;
  readonly #logger: Logger;
  readonly #what: string;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = false;
  readonly #sweep: NodeJS.Timeout;
  readonly #onSequenced: (result: Result) => void;
  readonly #spacingMs: number;

  /** `what`: the job, for the log ("numbering proof events"); `onSequenced`: each run's result (for the metrics). */
  constructor(options: {
    what: string;
    sequence: () => Promise<Result>;
    logger: Logger;
    onSequenced?: (result: Result) => void;
    sweepIntervalMs?: number;
    spacingMs?: number;
  }) {
    this.#spacingMs = options.spacingMs ?? 0;
    this.#what = options.what;
    this.#sequence = options.sequence;
    this.#logger = options.logger;
    this.#onSequenced = options.onSequenced ?? (() => {});
    this.#sweep = setInterval(() => this.request(), options.sweepIntervalMs ?? 1_000);
    this.#sweep.unref();
  }

  request(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#run().finally(() => (this.#running = undefined));
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#sweep);
    await this.#running;
  }

  async #run(): Promise<void> {
    for (let first = true; first || (this.#again && !this.#stopped); first = false) {
      if (!first && this.#spacingMs > 0) await new Promise((resolve) => setTimeout(resolve, this.#spacingMs));
      this.#again = false;
      try {
        this.#onSequenced(await this.#sequence());
      } catch (error) {
        // The next announcement or sweep retries; what waits is sequenced late but never lost.
        this.#logger.warn({ err: error }, `${this.#what} failed`);
        return;
      }
    }
  }
}

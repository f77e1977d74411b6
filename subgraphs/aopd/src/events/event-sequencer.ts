import type { Kysely } from "kysely";
import type { Logger } from "@compliance-graph/process-shell";
import type { AopdDatabase } from "../database/database-schema.js";
import { sequenceProofEvents, type NumberedEvents } from "./sequence-proof-events.js";

/**
 * Numbers this database's committed proof events from this replica: when a write is announced
 * (`request`), and every `sweepIntervalMs` in case an announcement was lost (a LISTEN connection
 * down, a replica that wrote and died before anyone numbered). Requests during a run coalesce into
 * one more run, so a burst of writes costs a few numbering statements, not one per write.
 */
export class EventSequencer {
  readonly #db: Kysely<AopdDatabase>;
  readonly #logger: Logger;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = false;
  readonly #sweep: NodeJS.Timeout;
  readonly #onNumbered: (events: NumberedEvents[]) => void;

  /** `onNumbered`: what each run numbered (for the metrics). */
  constructor(db: Kysely<AopdDatabase>, logger: Logger, onNumbered: (events: NumberedEvents[]) => void = () => {}, sweepIntervalMs = 1_000) {
    this.#db = db;
    this.#logger = logger;
    this.#onNumbered = onNumbered;
    this.#sweep = setInterval(() => this.request(), sweepIntervalMs);
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
    do {
      this.#again = false;
      try {
        this.#onNumbered(await sequenceProofEvents(this.#db));
      } catch (error) {
        // The next announcement or sweep retries; events wait, numbered late but never lost.
        this.#logger.warn({ err: error }, "numbering proof events failed");
        return;
      }
    } while (this.#again && !this.#stopped);
  }
}

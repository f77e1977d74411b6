import type { Kysely } from "kysely";
import type { GraphQLError } from "graphql";
import { LimitExceededError, PublicError } from "@compliance-graph/errors";
import { isUuid, type FilterLimits } from "@compliance-graph/filter";
import { PushQueue, type Logger } from "@compliance-graph/server-kit";
import type { AopdDatabase, ProofRow } from "../database/database-schema.js";
import type { ProofEvent } from "../events/proof-event.js";
import { selectProofs } from "../proofs/proof-query.js";
import { toProof, type Proof } from "../proofs/proof.js";
import { matchColumn, matchProofEventsQuery } from "./match-proof-events-query.js";

export interface ProofSubscriptionHubOptions {
  db: Kysely<AopdDatabase>;
  limits: FilterLimits;
  logger: Logger;
  /**
   * Events a subscriber may fall behind (queued, not yet sent) before it is ended with
   * `LIMIT_EXCEEDED`: a stalled gateway connection cannot grow this replica's memory without bound.
   * @default 1_000 // events
   */
  maxQueuedEvents?: number;
  /** Most events read in one query. @default 200 // events */
  maxBatchEvents?: number;
  /** Most filters evaluated in one query; more distinct filters take more queries. @default 100 // filters */
  maxFiltersPerQuery?: number;
}

/** What graphql-js's `subscribe` gets for each event: the root value of the subscription's selection. */
export interface ProofSubscriptionPayload {
  aopdProofs: Proof;
}

interface FilterEntry {
  filter: unknown;
  subscribers: Set<PushQueue<ProofSubscriptionPayload>>;
}

/** The proof event stream was interrupted; a subscriber must subscribe again and re-read. */
export class ProofEventsInterruptedError extends PublicError {
  constructor() {
    super("SERVICE_UNAVAILABLE", "The proof event stream was interrupted and events may have been missed; subscribe again and re-read the proofs.");
  }
}

/**
 * The subscribers of one aopd replica and the delivery of proof events to them. Events queue in
 * commit order; one query at a time reads the committed rows of a batch of events together with
 * every distinct filter's verdict (see `matchProofEventsQuery`), then each matching subscriber gets
 * the proof, in commit order. While the LISTEN connection is down no subscription is accepted, and
 * when it drops every subscriber is ended with an error: a subscriber is never left believing it
 * saw every change when it did not.
 */
export class ProofSubscriptionHub {
  readonly #options: ProofSubscriptionHubOptions;
  readonly #entries = new Map<string, FilterEntry>();
  #pending: ProofEvent[] = [];
  #draining = false;
  #listening = false;

  constructor(options: ProofSubscriptionHubOptions) {
    this.#options = options;
  }

  get subscriberCount(): number {
    let count = 0;
    for (const entry of this.#entries.values()) count += entry.subscribers.size;
    return count;
  }

  /** Throws `UserInputError` for a bad filter before anything is registered. */
  subscribe(filter: unknown): AsyncIterableIterator<ProofSubscriptionPayload> {
    // Builds (does not run) the query: the filter is validated exactly as `proofs` validates it.
    selectProofs(this.#options.db, filter, undefined, this.#options.limits);
    if (!this.#listening) throw new PublicError("SERVICE_UNAVAILABLE", "Proof events are not available right now; try again shortly.");
    const key = JSON.stringify(filter ?? null);
    let entry = this.#entries.get(key);
    if (!entry) {
      entry = { filter: filter ?? null, subscribers: new Set() };
      this.#entries.set(key, entry);
    }
    const target = entry;
    const queue: PushQueue<ProofSubscriptionPayload> = new PushQueue(() => {
      target.subscribers.delete(queue);
      if (target.subscribers.size === 0 && this.#entries.get(key) === target) this.#entries.delete(key);
    });
    target.subscribers.add(queue);
    return queue;
  }

  listening(): void {
    this.#listening = true;
  }

  /** The LISTEN connection dropped: ends every subscriber with `ProofEventsInterruptedError`. */
  interrupted(): void {
    this.#listening = false;
    this.#pending = [];
    this.endAll(new ProofEventsInterruptedError());
  }

  /** Ends every subscription (shutdown: without an error, so clients see a completion). */
  endAll(error?: GraphQLError): void {
    for (const entry of [...this.#entries.values()]) for (const queue of [...entry.subscribers]) queue.end(error);
    this.#entries.clear();
  }

  publish(event: ProofEvent): void {
    if (this.#entries.size === 0 || !isUuid(event.id)) return;
    this.#pending.push(event);
    if (!this.#draining) void this.#drain();
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending.splice(0, this.#options.maxBatchEvents ?? 200);
        try {
          await this.#deliver(batch);
        } catch (error) {
          // The database failed mid-delivery: the batch is lost for these subscribers, so they
          // are told rather than left waiting for events that will never come.
          this.#options.logger.error({ err: error }, "proof event delivery failed");
          this.endAll(new ProofEventsInterruptedError());
        }
      }
    } finally {
      this.#draining = false;
    }
  }

  async #deliver(batch: ProofEvent[]): Promise<void> {
    const entries = [...this.#entries.values()];
    if (entries.length === 0) return;
    const ids = [...new Set(batch.map((event) => event.id.toLowerCase()))];
    const chunk = this.#options.maxFiltersPerQuery ?? 100;
    const rows = new Map<string, ProofRow>();
    const matches = new Map<string, FilterEntry[]>();
    for (let start = 0; start < entries.length; start += chunk) {
      const slice = entries.slice(start, start + chunk);
      const found = await matchProofEventsQuery(this.#options.db, ids, slice.map((entry) => entry.filter), this.#options.limits).execute();
      for (const row of found as (ProofRow & Record<string, unknown>)[]) {
        rows.set(row.id, row);
        const list = matches.get(row.id) ?? [];
        slice.forEach((entry, index) => {
          if (row[matchColumn(index)] === true) list.push(entry);
        });
        matches.set(row.id, list);
      }
    }
    const maxQueued = this.#options.maxQueuedEvents ?? 1_000;
    for (const event of batch) {
      const id = event.id.toLowerCase();
      const row = rows.get(id);
      if (!row) continue;
      const payload: ProofSubscriptionPayload = { aopdProofs: toProof(row) };
      for (const entry of matches.get(id) ?? []) {
        for (const queue of entry.subscribers) {
          if (queue.size >= maxQueued) {
            queue.end(new LimitExceededError("maxQueuedEvents", maxQueued, `The subscriber fell more than ${maxQueued} events behind; subscribe again and re-read the proofs.`));
          } else {
            queue.push(payload);
          }
        }
      }
    }
  }
}

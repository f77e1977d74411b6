import { sql, type Kysely } from "kysely";
import type { GraphQLError } from "graphql";
import { compileFilter, type FilterLimits } from "@compliance-graph/filter";
import { LimitExceededError, PublicError } from "@compliance-graph/errors";
import { type Logger } from "@compliance-graph/process-shell";
import { PushQueue } from "@compliance-graph/graphql-execution";
import type { AopdDatabase } from "../database/database-schema.js";
import { decodeEventCursor, encodeEventCursor } from "./event-cursor.js";
import type { ProofEvent } from "./proof-event.js";
import { selectMatchingProofEvents, selectProofEvents, toProofEvent, type ProofEventRow } from "./select-proof-events.js";
import { requireCursorInLog } from "./require-cursor-in-log.js";
import { readEventLogBounds } from "./sequence-proof-events.js";
import { proofFilterSpec } from "../proofs/proof-filter-spec.js";
import { validateProofFilter } from "../proofs/validate-proof-filter.js";

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
  /** First wait before reading again after the database failed; doubles up to 10 s. @default 250 // milliseconds */
  retryDelayMs?: number;
}

/** What graphql-js's `subscribe` gets for each event: the root value of the subscription's selection. */
export interface ProofSubscriptionPayload {
  aopdProofs: ProofEvent["proof"];
}

interface Subscriber {
  queue: PushQueue<ProofSubscriptionPayload>;
  filter: unknown;
  /** The last position delivered to this subscriber or passed over for it. */
  position: bigint;
}

interface FilterEntry {
  filter: unknown;
  subscribers: Set<Subscriber>;
}

/** The name of the column that says whether an event matches the batch's filter number `index`. */
const verdictColumn = (index: number) => `m${index}`;

/**
 * The subscribers of one aopd replica and the delivery of the proof event log to them.
 *
 * The hub reads the log in position order after `#position`, the last position every live
 * subscriber has been served through: one query per batch of events, with one verdict column per
 * distinct filter, so a thousand subscribers cost what one costs. Nothing depends on a notification
 * arriving: a wake-up says where the log ends, and whatever was announced while the LISTEN
 * connection was down, or while the database failed, is read when it is back, from `#position`.
 * So a stream inside the system pauses instead of ending.
 *
 * A subscriber with `after` first replays its own matching events up to the hub's position (in
 * pages, at the pace its consumer pulls), then joins between two batches after a last catch-up, so
 * the seam between replay and live delivery has neither a gap nor a duplicate.
 */
export class ProofSubscriptionHub {
  readonly #options: ProofSubscriptionHubOptions;
  readonly #entries = new Map<string, FilterEntry>();
  #joining: Subscriber[] = [];
  #position: bigint | undefined;
  #logEnd = 0n;
  #draining = false;
  #retryTimer: NodeJS.Timeout | undefined;
  #retryDelay: number;

  constructor(options: ProofSubscriptionHubOptions) {
    this.#options = options;
    this.#retryDelay = options.retryDelayMs ?? 250;
  }

  get subscriberCount(): number {
    let count = this.#joining.length;
    for (const entry of this.#entries.values()) count += entry.subscribers.size;
    return count;
  }

  /**
   * Reads where the log ends (at start, and after the LISTEN connection is back, for what was
   * announced meanwhile). Until the first read succeeds no subscription is accepted: the hub would
   * not know where "from now on" starts.
   */
  async refresh(): Promise<void> {
    const { sequencedThrough } = await readEventLogBounds(this.#options.db);
    const end = BigInt(sequencedThrough);
    this.#position ??= end;
    this.announced(sequencedThrough);
  }

  /** The log holds events up to this position. */
  announced(position: string): void {
    const end = BigInt(position);
    if (end > this.#logEnd) this.#logEnd = end;
    this.#wake();
  }

  /**
   * Validates the filter (as `proofs` does) and the cursor, and returns the subscriber's events:
   * those after `after` that match the filter, then every new one as it is numbered. Without
   * `after`, only the events numbered from now on.
   */
  async subscribe(filter: unknown, after?: string | null): Promise<AsyncIterableIterator<ProofSubscriptionPayload>> {
    validateProofFilter(filter, this.#options.limits);
    const from = after === null || after === undefined ? undefined : BigInt(decodeEventCursor(after, "after"));
    const position = this.#position;
    if (position === undefined) throw new PublicError("SERVICE_UNAVAILABLE", "Proof events are not available right now; try again shortly.");
    if (from !== undefined) requireCursorInLog(from, await readEventLogBounds(this.#options.db));
    const subscriber: Subscriber = { queue: new PushQueue(() => this.#leave(subscriber)), filter: filter ?? null, position: from ?? position };
    if (subscriber.position < position) {
      // The bulk of a replay runs beside live delivery, so one long replay delays nobody else.
      this.#replay(subscriber, position).then(
        () => this.#join(subscriber),
        (error: unknown) => this.#failed(subscriber, error),
      );
    } else {
      this.#join(subscriber);
    }
    return subscriber.queue;
  }

  /** Ends every subscription (shutdown: without an error, so clients see a completion). */
  endAll(error?: GraphQLError): void {
    clearTimeout(this.#retryTimer);
    const subscribers = [...this.#joining, ...[...this.#entries.values()].flatMap((entry) => [...entry.subscribers])];
    this.#joining = [];
    this.#entries.clear();
    for (const subscriber of subscribers) subscriber.queue.end(error);
  }

  #join(subscriber: Subscriber): void {
    if (subscriber.queue.ended) return;
    this.#joining.push(subscriber);
    this.#wake();
  }

  #leave(subscriber: Subscriber): void {
    this.#joining = this.#joining.filter((joining) => joining !== subscriber);
    const key = JSON.stringify(subscriber.filter);
    const entry = this.#entries.get(key);
    if (!entry) return;
    entry.subscribers.delete(subscriber);
    if (entry.subscribers.size === 0) this.#entries.delete(key);
  }

  #failed(subscriber: Subscriber, error: unknown): void {
    this.#options.logger.error({ err: error }, "replaying proof events failed");
    const cursor = encodeEventCursor(subscriber.position.toString());
    subscriber.queue.end(
      new PublicError("SERVICE_UNAVAILABLE", `Replaying proof events failed; subscribe again with after: "${cursor}" to continue where this stopped.`),
    );
  }

  /** Pushes the subscriber's matching events in (its position, through], a page at a time. */
  async #replay(subscriber: Subscriber, through: bigint): Promise<void> {
    const page = this.#options.maxBatchEvents ?? 200;
    while (subscriber.position < through && !subscriber.queue.ended) {
      const rows = await selectMatchingProofEvents(
        this.#options.db,
        subscriber.filter,
        this.#options.limits,
        subscriber.position.toString(),
        through.toString(),
      )
        .limit(page)
        .execute();
      for (const row of rows) subscriber.queue.push(this.#payload(row));
      subscriber.position = rows.length < page ? through : BigInt(String(rows.at(-1)?.position));
      await subscriber.queue.whenDrained();
    }
  }

  #payload(row: ProofEventRow): ProofSubscriptionPayload {
    return { aopdProofs: toProofEvent(row).proof };
  }

  #wake(): void {
    if (!this.#draining && this.#position !== undefined) void this.#drain();
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      for (;;) {
        for (const subscriber of this.#joining.splice(0)) await this.#admit(subscriber);
        if (this.#logEnd <= (this.#position as bigint)) break;
        await this.#deliverBatch();
      }
      this.#retryDelay = this.#options.retryDelayMs ?? 250;
    } catch (error) {
      // The log stays where it is: once the database answers again, delivery resumes from
      // `#position` and the subscribers miss nothing.
      this.#options.logger.warn({ err: error, retryInMs: this.#retryDelay }, "reading proof events failed");
      clearTimeout(this.#retryTimer);
      this.#retryTimer = setTimeout(() => this.#wake(), this.#retryDelay);
      this.#retryTimer.unref();
      this.#retryDelay = Math.min(this.#retryDelay * 2, 10_000);
    } finally {
      this.#draining = false;
    }
  }

  /** Between two batches: the last catch-up of a joining subscriber, then it is live. */
  async #admit(subscriber: Subscriber): Promise<void> {
    if (subscriber.queue.ended) return;
    const position = this.#position as bigint;
    try {
      if (subscriber.position < position) await this.#replay(subscriber, position);
    } catch (error) {
      this.#failed(subscriber, error);
      return;
    }
    if (subscriber.queue.ended) return;
    const key = JSON.stringify(subscriber.filter);
    let entry = this.#entries.get(key);
    if (!entry) {
      entry = { filter: subscriber.filter, subscribers: new Set() };
      this.#entries.set(key, entry);
    }
    entry.subscribers.add(subscriber);
  }

  /** Reads the next batch after `#position` with every live filter's verdict and delivers it. */
  async #deliverBatch(): Promise<void> {
    const from = (this.#position as bigint).toString();
    const entries = [...this.#entries.values()];
    if (entries.length === 0) {
      this.#position = this.#logEnd;
      return;
    }
    const limit = this.#options.maxBatchEvents ?? 200;
    const chunk = this.#options.maxFiltersPerQuery ?? 100;
    const matches = new Map<string, FilterEntry[]>();
    const rows: ProofEventRow[] = [];
    let through: string | undefined;
    for (let start = 0; start < entries.length; start += chunk) {
      const slice = entries.slice(start, start + chunk);
      let query = selectProofEvents(this.#options.db, from, through).select((eb) =>
        slice.map((entry, index) =>
          sql<boolean | null>`${compileFilter(eb, proofFilterSpec, entry.filter, "filter", this.#options.limits)}`.as(verdictColumn(index)),
        ),
      );
      // The first query decides where the batch ends; the others read exactly the same events.
      if (through === undefined) query = query.limit(limit);
      const found = (await query.execute()) as (ProofEventRow & Record<string, unknown>)[];
      if (through === undefined) {
        rows.push(...found);
        through = found.length > 0 ? String(found.at(-1)?.position) : this.#logEnd.toString();
      }
      for (const row of found) {
        const list = matches.get(String(row.position)) ?? [];
        slice.forEach((entry, index) => {
          if (row[verdictColumn(index)] === true) list.push(entry);
        });
        matches.set(String(row.position), list);
      }
    }
    const maxQueued = this.#options.maxQueuedEvents ?? 1_000;
    for (const row of rows) {
      const position = BigInt(String(row.position));
      const payload = this.#payload(row);
      for (const entry of matches.get(String(row.position)) ?? []) {
        for (const subscriber of entry.subscribers) {
          if (subscriber.position >= position) continue;
          if (subscriber.queue.size >= maxQueued) {
            const cursor = encodeEventCursor(subscriber.position.toString());
            subscriber.queue.end(
              new LimitExceededError(
                "maxQueuedEvents",
                maxQueued,
                `The subscriber fell more than ${maxQueued} events behind; subscribe again with after: "${cursor}" to continue where it stopped.`,
              ),
            );
            continue;
          }
          subscriber.queue.push(payload);
          subscriber.position = position;
        }
      }
    }
    const end = BigInt(through as string);
    for (const entry of entries) for (const subscriber of entry.subscribers) if (subscriber.position < end) subscriber.position = end;
    this.#position = end > (this.#position as bigint) ? end : (this.#position as bigint);
  }
}

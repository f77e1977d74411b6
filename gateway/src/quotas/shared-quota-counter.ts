/**
 * Quotas that hold in total across gateway replicas, counted in PostgreSQL without costing a
 * request a database round trip. Each replica admits from memory against what it last read of
 * everyone's counts plus what it admitted since; every `syncIntervalMs` it adds what it admitted
 * to the shared rows and reads back every count changed since its previous read, in one
 * statement. The error is bounded by that batch: a replica sees another's admissions at most one
 * of its own syncs after that one's sync, so the total in a window can pass a limit by what the
 * other replicas admitted within about two sync intervals each (docs/quotas.md).
 *
 * The table is UNLOGGED: counts of a window are worth nothing after it, so they skip the WAL (and
 * are emptied by a crash, which at worst lets callers start a window afresh). While the database
 * cannot be reached the replica keeps counting and also holds each quota to its own share
 * (`limit / replicas`), as a replica without a database does; the counts are sent once it is back.
 */
import pg from "pg";
import type { Logger } from "@compliance-graph/process-shell";
import { replicaShare, type QuotaCounter } from "./quota-counter.js";

export interface SharedQuotaCounterOptions {
  databaseUrl: string;
  /** The replicas sharing the quotas, for each one's share while the database is away. */
  replicas: number;
  /** @default 250 // milliseconds */
  syncIntervalMs: number;
  logger: Logger;
  /** Told of each sync's outcome (the metric `gateway_quota_syncs_total`). */
  onSync?: (outcome: "ok" | "error") => void;
}

interface SharedEntry {
  endsAt: number;
  /** Everyone's count, as last read from the database. */
  known: number;
  /** Admitted here and being added to the database now (not yet in `known`). */
  sending: number;
  /** Admitted here since the last sync began. */
  pending: number;
  /** Admitted here in this window, for the replica's share while the database is away. */
  local: number;
}

/** A count read back may predate its transaction's commit by a little; rows changed this long before the previous read are read again. @default 2_000 // milliseconds */
const rereadMs = 2_000;
/** Windows that ended more than this long ago are deleted from the table, at most once per this interval. @default 60_000 // milliseconds */
const cleanupMs = 60_000;

const createTable = `CREATE UNLOGGED TABLE IF NOT EXISTS gateway_quota_usage (
  key text PRIMARY KEY,
  used bigint NOT NULL,
  ends_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
)`;

// Adds this replica's batch, then returns each row it touched and every row another replica changed
// since the previous read. Both parts see the statement's snapshot, so a row of both comes back twice
// (its old and its new count): the reader keeps the larger.
const syncStatement = `WITH added AS (
  INSERT INTO gateway_quota_usage AS usage (key, used, ends_at, updated_at)
  SELECT key, used, to_timestamp(ends_at / 1000.0), clock_timestamp() FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS batch(key, used, ends_at)
  ON CONFLICT (key) DO UPDATE SET used = usage.used + excluded.used, updated_at = excluded.updated_at
  RETURNING key, used, ends_at
)
SELECT key, used::float8 AS used, (extract(epoch FROM ends_at) * 1000)::float8 AS ends_at FROM added
UNION ALL
SELECT key, used::float8, (extract(epoch FROM ends_at) * 1000)::float8 FROM gateway_quota_usage
WHERE updated_at > to_timestamp($4 / 1000.0) AND ends_at > statement_timestamp()
UNION ALL
SELECT NULL, NULL, (extract(epoch FROM statement_timestamp()) * 1000)::float8`;

export class SharedQuotaCounter implements QuotaCounter {
  readonly #entries = new Map<string, SharedEntry>();
  readonly #pool: pg.Pool;
  readonly #options: SharedQuotaCounterOptions;
  readonly #timer: NodeJS.Timeout;
  #tableReady = false;
  #syncing: Promise<void> | undefined;
  /** The database's time of the previous read, minus `rereadMs`. */
  #readSince = 0;
  #lastCleanup = 0;
  /** The last sync failed: each quota is held to this replica's share too. */
  #away = false;

  constructor(options: SharedQuotaCounterOptions) {
    this.#options = options;
    this.#pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 1,
      connectionTimeoutMillis: 5_000,
      statement_timeout: 5_000,
      idleTimeoutMillis: 30_000,
    });
    this.#pool.on("error", (error) => options.logger.warn({ err: error }, "quota database connection lost"));
    this.#timer = setInterval(() => void this.sync(), options.syncIntervalMs);
    this.#timer.unref();
  }

  take(key: string, endsAt: number, amount: number, limit: number): boolean {
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      entry = { endsAt, known: 0, sending: 0, pending: 0, local: 0 };
      this.#entries.set(key, entry);
    }
    if (entry.known + entry.sending + entry.pending + amount > limit) return false;
    if (this.#away && entry.local + amount > replicaShare(limit, this.#options.replicas)) return false;
    entry.pending += amount;
    entry.local += amount;
    return true;
  }

  giveBack(key: string, amount: number): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    entry.pending -= amount;
    entry.local -= amount;
  }

  /** Sends what was admitted since the previous sync and reads the others' counts; one at a time. Resolves when done, failed or not. */
  sync(): Promise<void> {
    this.#syncing ??= this.#sync().finally(() => (this.#syncing = undefined));
    return this.#syncing;
  }

  async #sync(): Promise<void> {
    const now = Date.now();
    const keys: string[] = [];
    const amounts: number[] = [];
    const ends: number[] = [];
    const sent: SharedEntry[] = [];
    for (const [key, entry] of this.#entries) {
      if (entry.endsAt <= now && entry.pending === 0) {
        this.#entries.delete(key);
        continue;
      }
      if (entry.pending === 0) continue;
      keys.push(key);
      amounts.push(entry.pending);
      ends.push(entry.endsAt);
      entry.sending = entry.pending;
      entry.pending = 0;
      sent.push(entry);
    }
    try {
      if (!this.#tableReady) await this.#createTable();
      const { rows } = await this.#pool.query<{ key: string | null; used: number | null; ends_at: number }>(syncStatement, [
        keys,
        amounts,
        ends,
        this.#readSince,
      ]);
      for (const entry of sent) entry.sending = 0;
      for (const row of rows) {
        if (row.key === null) {
          this.#readSince = row.ends_at - rereadMs;
          continue;
        }
        const entry = this.#entries.get(row.key);
        if (entry) entry.known = Math.max(entry.known, row.used ?? 0);
        else if (row.ends_at > now) this.#entries.set(row.key, { endsAt: row.ends_at, known: row.used ?? 0, sending: 0, pending: 0, local: 0 });
      }
      if (this.#away) this.#options.logger.info("quota database sync succeeded again: quotas hold in total across replicas");
      this.#away = false;
      this.#options.onSync?.("ok");
      if (now - this.#lastCleanup > cleanupMs) {
        this.#lastCleanup = now;
        await this.#pool.query("DELETE FROM gateway_quota_usage WHERE ends_at < now() - interval '1 minute'");
      }
    } catch (error) {
      // Not sent: it goes with the next batch.
      for (const entry of sent) {
        entry.pending += entry.sending;
        entry.sending = 0;
      }
      if (!this.#away)
        this.#options.logger.error(
          { err: error },
          "quota database sync failed: this replica holds each quota to its share (GATEWAY_QUOTA_REPLICAS) until a sync succeeds",
        );
      this.#away = true;
      this.#options.onSync?.("error");
    }
  }

  async #createTable(): Promise<void> {
    try {
      await this.#pool.query(createTable);
    } catch (error) {
      // Two replicas creating the table at once: one of them loses the race on the catalog.
      if ((error as { code?: string }).code !== "23505" && (error as { code?: string }).code !== "42P07") throw error;
    }
    this.#tableReady = true;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#syncing;
    await this.sync();
    await this.#pool.end();
  }
}

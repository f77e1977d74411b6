import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { sql } from "kysely";
import { from as copyFrom } from "pg-copy-streams";
import type { Database } from "../database/open-database.js";
import { setLocalStatementTimeout } from "../database/set-local-statement-timeout.js";
import { demoProofColumns, demoProofRow, type DemoProofRow } from "./demo-proof-rows.js";
import { SeedAlreadyUsedError } from "./seed-already-used-error.js";
import { SeededRandom } from "./seeded-random.js";

export interface SeedOptions {
  count: number;
  /** The generator's seed: the same seed writes the same proofs. @default 1 */
  seed?: number;
  /** Rows per COPY batch. @default 50_000 */
  batchSize?: number;
}

/**
 * From this many rows on, the seeder drops the secondary indexes, loads, and rebuilds them: one
 * index build is many times faster than maintaining trigram indexes row by row. It is a demo and
 * benchmark tool; the rebuild locks the table, so it is not for a database in use.
 */
const bulkLoadThreshold = 10_000;

const copySql = `COPY aopd_proof (${demoProofColumns.join(", ")}) FROM STDIN WITH (FORMAT csv)`;

function csvField(value: string | null): string {
  if (value === null) return "";
  return /[",\n\r]/.test(value) || value === "" ? `"${value.replace(/"/g, '""')}"` : value;
}

function toCsv(rows: DemoProofRow[]): string {
  return rows.map((row) => row.map(csvField).join(",")).join("\n") + "\n";
}

/**
 * Writes `count` deterministic demo proofs with COPY, the fastest way into PostgreSQL, in batches
 * so that memory stays bounded however many are asked for (a million takes seconds, not minutes).
 * A seed whose proofs are already in the table is refused before anything is written (the same
 * seed writes the same ids), and the table is analyzed afterwards: the planner would otherwise
 * plan the next queries for the table as it was before the load. Loading is long work by nature,
 * as migrations are: it runs under the long statement timeout, not the queries' one.
 */
export async function seedProofs(database: Database, options: SeedOptions): Promise<{ count: number }> {
  const seed = options.seed ?? 1;
  if (await isSeedUsed(database, seed)) throw new SeedAlreadyUsedError(seed);
  const random = new SeededRandom(seed);
  const batchSize = options.batchSize ?? 50_000;
  const customerCount = Math.max(50, Math.ceil(options.count / 20));
  const droppedIndexes = options.count >= bulkLoadThreshold ? await dropSecondaryIndexes(database) : [];
  try {
    for (let written = 0; written < options.count;) {
      const size = Math.min(batchSize, options.count - written);
      const rows: DemoProofRow[] = [];
      for (let i = 0; i < size; i += 1) rows.push(demoProofRow(random, customerCount));
      await copyRows(database, toCsv(rows));
      written += size;
    }
  } finally {
    // Rebuilt even when loading failed: a table without its indexes would be a silent slowdown.
    await database.longRunning.transaction().execute(async (trx) => {
      await sql`SET LOCAL maintenance_work_mem = '256MB'`.execute(trx);
      for (const definition of droppedIndexes) await sql.raw(definition).execute(trx);
    });
  }
  await sql`ANALYZE aopd_proof`.execute(database.longRunning);
  return { count: options.count };
}

/** Whether the proofs of this seed are already in the table: its first proof id is. */
export async function isSeedUsed(database: Database, seed: number): Promise<boolean> {
  const firstId = new SeededRandom(seed).uuid();
  const row = await database.longRunning.selectFrom("aopd_proof").select("id").where("id", "=", firstId).executeTakeFirst();
  return row !== undefined;
}

/** The lowest seed from `from` on whose proofs are not in the table yet. */
export async function firstUnusedSeed(database: Database, from = 1): Promise<number> {
  let seed = from;
  while (await isSeedUsed(database, seed)) seed += 1;
  return seed;
}

/**
 * Drops every index of the proof table that backs no constraint (the primary key and unique columns
 * such as the sign-in nonce keep theirs: a constraint's index cannot be dropped) and returns their
 * definitions.
 */
async function dropSecondaryIndexes(database: Database): Promise<string[]> {
  const { rows } = await sql<{ indexname: string; indexdef: string }>`
    SELECT indexname, indexdef FROM pg_indexes
    WHERE schemaname = current_schema() AND tablename = 'aopd_proof'
      AND NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conindid = format('%I.%I', schemaname, indexname)::regclass)
  `.execute(database.longRunning);
  for (const { indexname } of rows) await sql`DROP INDEX ${sql.id(indexname)}`.execute(database.longRunning);
  return rows.map((row) => row.indexdef);
}

/**
 * Copies one batch with event recording off for that transaction only (see migration 0004): demo
 * rows are not changes anybody subscribed to, and a million of them would flood the event log.
 */
async function copyRows(database: Database, csv: string): Promise<void> {
  if (database.pglite) {
    await database.pglite.transaction(async (trx) => {
      await trx.exec("SET LOCAL aopd.record_events = off");
      await trx.query(copySql.replace("FROM STDIN", "FROM '/dev/blob'"), [], { blob: new Blob([csv]) });
    });
    return;
  }
  if (!database.pool) throw new Error("The database has neither a pool nor PGlite.");
  const client = await database.pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SET LOCAL aopd.record_events = off");
    await setLocalStatementTimeout(client, database.longStatementTimeoutMs);
    await pipeline(Readable.from([csv]), client.query(copyFrom(copySql)));
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

import { sql, type Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";

/**
 * Numbers the committed events that have no position yet, `batchSize` per statement, until none is
 * left; returns how many it numbered. Safe in any number of replicas at once (the function takes
 * the log row's lock; see migration 0004).
 */
export async function sequenceProofEvents(db: Kysely<AopdDatabase>, batchSize = 1_000): Promise<number> {
  let total = 0;
  for (;;) {
    const { rows } = await sql<{ numbered: number }>`SELECT aopd_sequence_proof_events(${batchSize}::integer) AS numbered`.execute(db);
    const numbered = Number(rows[0]?.numbered ?? 0);
    total += numbered;
    if (numbered < batchSize) return total;
  }
}

/** The last position numbered, and the last one pruned (events up to it are gone). */
export async function readEventLogBounds(db: Kysely<AopdDatabase>): Promise<{ sequencedThrough: string; prunedThrough: string }> {
  const row = await db.selectFrom("aopd_proof_event_log").select(["sequenced_through", "pruned_through"]).executeTakeFirstOrThrow();
  return { sequencedThrough: String(row.sequenced_through), prunedThrough: String(row.pruned_through) };
}

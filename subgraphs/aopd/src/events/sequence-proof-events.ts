import { sql, type Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";

/** How many events of one change, proof kind and new status a numbering covered. */
export interface NumberedEvents {
  change: string;
  kind: string;
  status: string;
  count: number;
}

/**
 * Numbers the committed events that have no position yet, `batchSize` per transaction, until none
 * is left; returns what it numbered, by change, kind and status (for the metrics). Safe in any
 * number of replicas at once (the function takes the log row's lock, see migration 0004; it is held
 * to the end of the transaction, so the positions just assigned are exactly the last ones).
 */
export async function sequenceProofEvents(db: Kysely<AopdDatabase>, batchSize = 1_000): Promise<NumberedEvents[]> {
  const numberedEvents: NumberedEvents[] = [];
  for (;;) {
    const numbered = await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ numbered: number }>`SELECT aopd_sequence_proof_events(${batchSize}::integer) AS numbered`.execute(trx);
      const count = Number(rows[0]?.numbered ?? 0);
      if (count === 0) return 0;
      const { rows: groups } = await sql<{ change: string; kind: string; status: string; count: string }>`
        SELECT change, proof->>'kind' AS kind, proof->>'status' AS status, count(*) AS count
        FROM aopd_proof_event
        WHERE position > (SELECT sequenced_through FROM aopd_proof_event_log) - ${count}::bigint
        GROUP BY 1, 2, 3
      `.execute(trx);
      for (const group of groups) numberedEvents.push({ change: group.change, kind: group.kind, status: group.status, count: Number(group.count) });
      return count;
    });
    if (numbered < batchSize) return numberedEvents;
  }
}

/** The last position numbered, and the last one pruned (events up to it are gone). */
export async function readEventLogBounds(db: Kysely<AopdDatabase>): Promise<{ sequencedThrough: string; prunedThrough: string }> {
  const row = await db.selectFrom("aopd_proof_event_log").select(["sequenced_through", "pruned_through"]).executeTakeFirstOrThrow();
  return { sequencedThrough: String(row.sequenced_through), prunedThrough: String(row.pruned_through) };
}

import { sql, type Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";

/** Any fixed number: the advisory lock that keeps two replicas from pruning at once. */
const pruneLockKey = 0x616f7064;

/**
 * Deletes the oldest numbered events numbered more than `retentionSeconds` ago, `batchSize` at a
 * time in short transactions (no long lock on the log, no huge delete), and records the last
 * position deleted: a cursor at or after it still replays without a gap, an older one is refused.
 * Events are deleted strictly in position order, so what remains is always a suffix of the log.
 * Returns how many it deleted; a replica that finds another pruning returns 0.
 */
export async function pruneProofEvents(db: Kysely<AopdDatabase>, retentionSeconds: number, batchSize = 5_000): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await db.transaction().execute(async (trx) => {
      const { rows: locked } = await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(${pruneLockKey}) AS ok`.execute(trx);
      if (!locked[0]?.ok) return 0;
      const { rows } = await sql<{ through: string | null; count: string }>`
        WITH oldest AS (
          SELECT position, sequenced_at FROM aopd_proof_event
          WHERE position > (SELECT pruned_through FROM aopd_proof_event_log)
          ORDER BY position
          LIMIT ${batchSize}
        )
        SELECT max(position)::text AS through, count(*)::text AS count FROM oldest
        WHERE sequenced_at < now() - make_interval(secs => ${retentionSeconds})
          AND position <= coalesce(
            (SELECT min(position) FROM oldest WHERE sequenced_at >= now() - make_interval(secs => ${retentionSeconds})),
            9223372036854775807
          )
      `.execute(trx);
      const through = rows[0]?.through;
      if (!through) return 0;
      await sql`DELETE FROM aopd_proof_event WHERE position <= ${through} AND position IS NOT NULL`.execute(trx);
      await sql`UPDATE aopd_proof_event_log SET pruned_through = greatest(pruned_through, ${through}::bigint)`.execute(trx);
      return Number(rows[0]?.count ?? 0);
    });
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

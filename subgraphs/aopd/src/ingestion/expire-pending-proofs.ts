import { sql, type Kysely } from "kysely";
import type { AopdDatabase, ProofRow } from "../database/database-schema.js";
import { publishProofEvent } from "../events/proof-event.js";

/**
 * Marks pending proofs past their due time EXPIRED, at most `batchSize` at a time, and publishes
 * each change in the same transaction. Safe with any number of replicas running it at once: rows
 * another replica is expiring are skipped (`SKIP LOCKED`), and the status condition is checked
 * again under the row lock, so each proof expires exactly once.
 */
export async function expirePendingProofs(db: Kysely<AopdDatabase>, batchSize = 1_000): Promise<ProofRow[]> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<ProofRow>`
      UPDATE aopd_proof AS p
      SET status = 'EXPIRED', due_at = NULL, updated_at = now()
      FROM (
        SELECT id FROM aopd_proof
        WHERE status = 'PENDING' AND due_at <= now()
        ORDER BY due_at
        LIMIT ${batchSize}
        FOR UPDATE SKIP LOCKED
      ) AS due
      WHERE p.id = due.id AND p.status = 'PENDING'
      RETURNING p.*
    `.execute(trx);
    for (const row of rows) await publishProofEvent(trx, { id: row.id, change: "STATUS_CHANGED", status: row.status });
    return rows;
  });
}

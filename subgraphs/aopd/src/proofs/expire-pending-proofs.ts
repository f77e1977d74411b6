import { sql, type Kysely } from "kysely";
import { appendAuditEntries } from "../audit/append-audit-entry.js";
import { expiryActor } from "../audit/audit-actor.js";
import type { AopdDatabase, ProofRow } from "../database/database-schema.js";
import { inTransaction } from "../database/in-transaction.js";

/**
 * Marks pending proofs past their due time EXPIRED, at most `batchSize` at a time; each change
 * enters the event log in the same statement (the table's trigger). Safe with any number of
 * replicas running it at once: rows another replica is expiring are skipped (`SKIP LOCKED`), and
 * the status condition is checked again under the row lock, so each proof expires exactly once.
 * Each row comes with how long past its due time it expired (`lag_seconds`). Each expiry is on
 * the audit trail, appended in the same transaction, by the named system actor `system:expiry`.
 */
export async function expirePendingProofs(db: Kysely<AopdDatabase>, batchSize = 1_000): Promise<(ProofRow & { lag_seconds: number })[]> {
  return inTransaction(db, async (trx) => {
    const { rows } = await sql<ProofRow & { lag_seconds: number }>`
      UPDATE aopd_proof AS p
      SET status = 'EXPIRED', due_at = NULL, updated_at = now()
      FROM (
        SELECT id, due_at FROM aopd_proof
        WHERE status = 'PENDING' AND due_at <= now()
        ORDER BY due_at
        LIMIT ${batchSize}
        FOR UPDATE SKIP LOCKED
      ) AS due
      WHERE p.id = due.id AND p.status = 'PENDING'
      RETURNING p.*, extract(epoch FROM now() - due.due_at)::float8 AS lag_seconds
    `.execute(trx);
    const origin = { actor: expiryActor, requestId: null };
    await appendAuditEntries(
      trx,
      rows.map((row) => ({ origin, action: "EXPIRED" as const, proofId: row.id, details: { kind: row.kind } })),
    );
    return rows;
  });
}

import { sql, type Kysely } from "kysely";
import type { AopdDatabase, ProofRow } from "../database/database-schema.js";

/**
 * Takes up to `batchSize` PENDING Satoshi proofs of the given assets, not yet due, whose deposit
 * address is due for a look, least recently watched first, and stamps them as watched now: the
 * same lease as `claimProofsForChainCheck` (one column, `chain_checked_at`), so replicas never
 * watch one address for one proof twice at once, and a proof the customer reports meanwhile is
 * still taken by the SUBMITTED checks (the submission clears the stamp).
 */
export async function claimPendingProofsForDepositWatch(db: Kysely<AopdDatabase>, assets: readonly string[], batchSize: number, recheckSeconds: number): Promise<ProofRow[]> {
  if (assets.length === 0) return [];
  const { rows } = await sql<ProofRow>`
    UPDATE aopd_proof AS p
    SET chain_checked_at = now()
    FROM (
      SELECT id FROM aopd_proof
      WHERE kind = 'satoshi' AND status = 'PENDING'
        AND asset IN (${sql.join(assets)})
        AND due_at > now()
        AND (chain_checked_at IS NULL OR chain_checked_at <= now() - make_interval(secs => ${recheckSeconds}))
      ORDER BY chain_checked_at NULLS FIRST
      LIMIT ${batchSize}
      FOR UPDATE SKIP LOCKED
    ) AS due
    WHERE p.id = due.id AND p.status = 'PENDING'
    RETURNING p.*
  `.execute(db);
  return rows;
}

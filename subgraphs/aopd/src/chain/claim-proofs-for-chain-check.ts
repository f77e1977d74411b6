import { sql, type Kysely } from "kysely";
import type { AopdDatabase, ProofRow } from "../database/database-schema.js";

/**
 * Takes up to `batchSize` SUBMITTED Satoshi proofs of the given assets that are due for a chain
 * check, least recently checked first, and stamps them as checked now. The stamp is a lease:
 * another replica skips them until `recheckSeconds` have passed, so the chain is asked once per
 * proof and interval however many replicas run. Rows another replica is claiming at the same
 * moment are skipped (`SKIP LOCKED`) rather than waited for. No lock is held while the chain is
 * asked; the verdict is written through the usual conditional status change.
 */
export async function claimProofsForChainCheck(db: Kysely<AopdDatabase>, assets: readonly string[], batchSize: number, recheckSeconds: number): Promise<ProofRow[]> {
  if (assets.length === 0) return [];
  const { rows } = await sql<ProofRow>`
    UPDATE aopd_proof AS p
    SET chain_checked_at = now()
    FROM (
      SELECT id FROM aopd_proof
      WHERE kind = 'satoshi' AND status = 'SUBMITTED' AND chain_check_until IS NOT NULL
        AND asset IN (${sql.join(assets)})
        AND chain_check_until > now()
        AND (chain_checked_at IS NULL OR chain_checked_at <= now() - make_interval(secs => ${recheckSeconds}))
      ORDER BY chain_checked_at NULLS FIRST
      LIMIT ${batchSize}
      FOR UPDATE SKIP LOCKED
    ) AS due
    WHERE p.id = due.id AND p.status = 'SUBMITTED'
    RETURNING p.*
  `.execute(db);
  return rows;
}

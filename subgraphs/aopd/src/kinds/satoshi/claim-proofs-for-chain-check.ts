import { sql, type Kysely } from "kysely";
import type { AopdDatabase, ProofRow } from "../../database/database-schema.js";

/**
 * What a pass asks of the chain: SUBMITTED proofs have a transaction to check until
 * `chain_check_until`; PENDING ones (when deposits are watched) a deposit address to look at until
 * they are due.
 */
const checkWindows = {
  SUBMITTED: sql.ref("chain_check_until"),
  PENDING: sql.ref("due_at"),
} as const;

/**
 * Takes up to `batchSize` Satoshi proofs in `status` of the given assets that are due for a look
 * at the chain, least recently looked at first, and stamps them as looked at now. The stamp
 * (`chain_checked_at`) is a lease: another replica skips them until `recheckSeconds` have passed,
 * so the chain is asked once per proof and interval however many replicas run. Rows another
 * replica is claiming at the same moment are skipped (`SKIP LOCKED`) rather than waited for. No
 * lock is held while the chain is asked; the verdict is written through the usual conditional
 * status change. A PENDING proof the customer reports meanwhile is taken by the SUBMITTED checks
 * (the submission clears the stamp).
 */
export async function claimProofsForChainCheck(
  db: Kysely<AopdDatabase>,
  status: keyof typeof checkWindows,
  assets: readonly string[],
  batchSize: number,
  recheckSeconds: number,
): Promise<ProofRow[]> {
  if (assets.length === 0) return [];
  const { rows } = await sql<ProofRow>`
    UPDATE aopd_proof AS p
    SET chain_checked_at = now()
    FROM (
      SELECT id FROM aopd_proof
      WHERE kind = 'satoshi' AND status = ${sql.lit(status)}
        AND asset IN (${sql.join(assets)})
        AND ${checkWindows[status]} > now()
        AND (chain_checked_at IS NULL OR chain_checked_at <= now() - make_interval(secs => ${recheckSeconds}))
      ORDER BY chain_checked_at NULLS FIRST
      LIMIT ${batchSize}
      FOR UPDATE SKIP LOCKED
    ) AS due
    WHERE p.id = due.id AND p.status = ${sql.lit(status)}
    RETURNING p.*
  `.execute(db);
  return rows;
}

import { sql, type Kysely } from "kysely";

/**
 * A signature proof left for an officer's review (issue 35): under `AOPD_SCREENING_POLICY=refuse`, a
 * valid signature whose address (or a sibling address of its key) is LISTED is not VERIFIED on its
 * own, and an officer decides it as a Satoshi or media proof is decided.
 *
 * - `aopd_proof.left_for_review`: why the evidence left the proof to an officer (`screening`), set
 *   in the UPDATE that takes the signature and never cleared: it says the proof's SUBMITTED status
 *   is a review an officer settles, and that its decision (VERIFIED or FAILED) was an officer's.
 *   Only a signature proof past PENDING carries it.
 * - A signature proof carries an assessment (and the decision columns) only when it was left for
 *   review: `aopd_proof_kind_columns` as migration 0005 wrote it, with that one change.
 * - The scheme the signature was verified with is kept on a proof left for review too
 *   (`aopd_proof_signature_scheme_kind`), so the officer reads how the key proved control and a
 *   contract wallet's check keeps its block (`aopd_proof_contract_check_block` needs the scheme).
 * This file keeps its SQL as it was written (a test pins its text): a later change is a new migration.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aopd_proof
      ADD COLUMN left_for_review text CHECK (left_for_review IN ('screening')),
      ADD CONSTRAINT aopd_proof_left_for_review_kind CHECK (left_for_review IS NULL OR (kind = 'signature' AND status IN ('SUBMITTED', 'VERIFIED', 'FAILED'))),
      DROP CONSTRAINT aopd_proof_kind_columns,
      ADD CONSTRAINT aopd_proof_kind_columns CHECK (
        (kind = 'satoshi' AND amount IS NOT NULL AND deposit_address IS NOT NULL AND format IS NULL AND signature IS NULL AND xpub IS NULL AND media_sha256 IS NULL)
        OR (kind = 'signature' AND amount IS NULL AND deposit_address IS NULL AND tx_id IS NULL AND (assessment IS NULL OR left_for_review IS NOT NULL) AND media_sha256 IS NULL)
        OR (kind = 'media' AND amount IS NULL AND deposit_address IS NULL AND tx_id IS NULL AND format IS NULL AND message IS NULL AND signature IS NULL AND xpub IS NULL
            AND (media_sha256 IS NULL) = (status IN ('PENDING', 'EXPIRED')))
      ),
      DROP CONSTRAINT aopd_proof_signature_scheme_kind,
      ADD CONSTRAINT aopd_proof_signature_scheme_kind CHECK (signature_scheme IS NULL OR (kind = 'signature' AND (status = 'VERIFIED' OR left_for_review IS NOT NULL)))
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    UPDATE aopd_proof SET signature_scheme = NULL, contract_check_block_height = NULL WHERE left_for_review IS NOT NULL AND status <> 'VERIFIED'
  `.execute(db);
  await sql`
    ALTER TABLE aopd_proof
      DROP CONSTRAINT aopd_proof_signature_scheme_kind,
      ADD CONSTRAINT aopd_proof_signature_scheme_kind CHECK (signature_scheme IS NULL OR (kind = 'signature' AND status = 'VERIFIED')),
      DROP CONSTRAINT aopd_proof_kind_columns,
      ADD CONSTRAINT aopd_proof_kind_columns CHECK (
        (kind = 'satoshi' AND amount IS NOT NULL AND deposit_address IS NOT NULL AND format IS NULL AND signature IS NULL AND xpub IS NULL AND media_sha256 IS NULL)
        OR (kind = 'signature' AND amount IS NULL AND deposit_address IS NULL AND tx_id IS NULL AND assessment IS NULL AND media_sha256 IS NULL)
        OR (kind = 'media' AND amount IS NULL AND deposit_address IS NULL AND tx_id IS NULL AND format IS NULL AND message IS NULL AND signature IS NULL AND xpub IS NULL
            AND (media_sha256 IS NULL) = (status IN ('PENDING', 'EXPIRED')))
      ),
      DROP CONSTRAINT aopd_proof_left_for_review_kind,
      DROP COLUMN left_for_review
  `.execute(db);
}

import { sql, type Kysely } from "kysely";

/**
 * Four eyes whole: where a kind is under four eyes, setting its decision aside is a proposal too,
 * which a second, different officer confirms (the proof returns to SUBMITTED) or rejects (the
 * decision stays in force). One officer alone could otherwise undo what two decided.
 *
 * - The decision history takes `REOPEN_PROPOSED` (no outcome; its reason text says why the decision
 *   should be set aside). The confirmation of such a proposal is the `REOPENED` entry, in the
 *   confirmer's name; its rejection is `REJECTED`, as for a proposed decision.
 * - `aopd_proof.proposal_id` may now name a proposal on a decided proof (VERIFIED or FAILED): a
 *   reopening awaiting its second officer. The CHECK of 0010 allowed it only on SUBMITTED proofs.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE aopd_proof_decision DROP CONSTRAINT aopd_proof_decision_action_check`.execute(db);
  await sql`
    ALTER TABLE aopd_proof_decision
      ADD CONSTRAINT aopd_proof_decision_action_check CHECK (action IN ('DECIDED', 'REOPENED', 'PROPOSED', 'CONFIRMED', 'REJECTED', 'REOPEN_PROPOSED'))
  `.execute(db);
  await sql`ALTER TABLE aopd_proof DROP CONSTRAINT aopd_proof_proposal_submitted`.execute(db);
  await sql`ALTER TABLE aopd_proof ADD CONSTRAINT aopd_proof_proposal_open CHECK (proposal_id IS NULL OR status IN ('SUBMITTED', 'VERIFIED', 'FAILED'))`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE aopd_proof DROP CONSTRAINT aopd_proof_proposal_open`.execute(db);
  await sql`ALTER TABLE aopd_proof ADD CONSTRAINT aopd_proof_proposal_submitted CHECK (proposal_id IS NULL OR status = 'SUBMITTED')`.execute(db);
  await sql`ALTER TABLE aopd_proof_decision DROP CONSTRAINT aopd_proof_decision_action_check`.execute(db);
  await sql`
    ALTER TABLE aopd_proof_decision
      ADD CONSTRAINT aopd_proof_decision_action_check CHECK (action IN ('DECIDED', 'REOPENED', 'PROPOSED', 'CONFIRMED', 'REJECTED'))
  `.execute(db);
}

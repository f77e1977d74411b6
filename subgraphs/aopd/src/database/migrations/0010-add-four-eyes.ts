import { sql, type Kysely } from "kysely";

/**
 * Four eyes (`AOPD_FOUR_EYES_KINDS`): a decision of the kinds named there is first a proposal, and
 * takes effect when a second, different officer confirms it.
 *
 * - The decision history takes three more actions: `PROPOSED` (with the proposed outcome and
 *   reason), `CONFIRMED` (the outcome and reason of the proposal it confirms; it is the decision in
 *   force) and `REJECTED` (the proof goes back to review, with the rejecter's reason).
 * - `aopd_proof.decision_action` says whether the decision in force was made by one officer
 *   (`DECIDED`) or confirmed by a second (`CONFIRMED`); null on rows decided before this migration
 *   (all `DECIDED`).
 * - `aopd_proof.proposal_id` names the proposal awaiting confirmation; only a SUBMITTED proof has
 *   one. Proposing sets it where it is null (so two officers cannot both propose), confirming and
 *   rejecting clear it under the proof row's lock.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE aopd_proof_decision DROP CONSTRAINT aopd_proof_decision_action_check`.execute(db);
  await sql`ALTER TABLE aopd_proof_decision DROP CONSTRAINT aopd_proof_decision_outcome`.execute(db);
  await sql`
    ALTER TABLE aopd_proof_decision
      ADD CONSTRAINT aopd_proof_decision_action_check CHECK (action IN ('DECIDED', 'REOPENED', 'PROPOSED', 'CONFIRMED', 'REJECTED')),
      ADD CONSTRAINT aopd_proof_decision_outcome CHECK ((action IN ('DECIDED', 'PROPOSED', 'CONFIRMED')) = (outcome IS NOT NULL))
  `.execute(db);
  await sql`
    ALTER TABLE aopd_proof
      ADD COLUMN proposal_id uuid,
      ADD COLUMN decision_action text CHECK (decision_action IN ('DECIDED', 'CONFIRMED')),
      ADD CONSTRAINT aopd_proof_proposal_submitted CHECK (proposal_id IS NULL OR status = 'SUBMITTED')
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE aopd_proof DROP CONSTRAINT aopd_proof_proposal_submitted, DROP COLUMN proposal_id, DROP COLUMN decision_action`.execute(db);
  await sql`ALTER TABLE aopd_proof_decision DROP CONSTRAINT aopd_proof_decision_action_check, DROP CONSTRAINT aopd_proof_decision_outcome`.execute(db);
  await sql`
    ALTER TABLE aopd_proof_decision
      ADD CONSTRAINT aopd_proof_decision_action_check CHECK (action IN ('DECIDED', 'REOPENED')),
      ADD CONSTRAINT aopd_proof_decision_outcome CHECK ((action = 'DECIDED') = (outcome IS NOT NULL))
  `.execute(db);
}

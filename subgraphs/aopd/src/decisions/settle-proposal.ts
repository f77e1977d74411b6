import { randomUUID } from "node:crypto";
import { ConflictError, NotFoundError, UserInputError } from "@compliance-graph/errors";
import { isUuid } from "@compliance-graph/filter";
import { sql, type Kysely, type Transaction } from "kysely";
import type { AopdDatabase, ProofDecisionRow, ProofRow } from "../database/database-schema.js";
import { changeProofStatus } from "../proofs/change-proof-status.js";
import { appendDecision, decisionColumns } from "./decide-proof.js";
import type { Decider } from "../audit/decider.js";
import { optionalOfficerText } from "../audit/officer-text.js";
import { requireFourEyesOfficer, type FourEyesRules } from "./four-eyes-officer.js";
import { setDecisionAside } from "./reopen-proof.js";

/**
 * The second pair of eyes. Threat: one officer deciding alone a proof the institution wants two
 * people to decide, by proposing and then confirming (or rejecting and re-proposing) under their
 * own name. The proposal names its proposer's subject; whoever settles it must be another subject,
 * checked under the proof row's lock so that a proposal is settled once. A second identity of the
 * same person (another account) is the identity provider's matter, not aopd's; a token without a
 * person (a service client's) is refused unless the deployment names it (four-eyes-officer.ts).
 * A proposal is a decision (`PROPOSED`, on a SUBMITTED proof) or a reopening (`REOPEN_PROPOSED`,
 * on a decided one).
 */
async function lockProposal(trx: Transaction<AopdDatabase>, rules: FourEyesRules, id: string, decider: Decider, settling: string) {
  requireFourEyesOfficer(decider, rules, `${settling} a proposal`);
  if (!isUuid(id)) throw new NotFoundError("The proof", id);
  const proof = await trx
    .selectFrom("aopd_proof")
    .select(["id", "kind", "status", "proposal_id"])
    .where("id", "=", id.toLowerCase())
    .forUpdate()
    .executeTakeFirst();
  if (!proof) throw new NotFoundError("The proof", id);
  if (proof.proposal_id === null)
    throw new ConflictError(`The proof is ${proof.status} and has no proposed decision to ${settling}.`, { status: proof.status });
  const proposal = await trx.selectFrom("aopd_proof_decision").selectAll().where("id", "=", proof.proposal_id).executeTakeFirstOrThrow();
  if (proposal.decider_subject === decider.subject) {
    throw new ConflictError(
      `You proposed this decision (${proposal.decider_username ?? proposal.decider_subject}); four eyes: a second, different officer must ${settling} it.`,
      { status: proof.status, proposedBy: proposal.decider_subject },
    );
  }
  return { proof, proposal };
}

/**
 * A second officer confirms the proposal: a proposed decision's outcome and reason become the
 * decision in force, confirmed in the confirmer's name; a proposed reopening sets the decision
 * aside (the `REOPENED` entry, in the confirmer's name, with the proposer's reason).
 */
export async function confirmProposal(
  db: Kysely<AopdDatabase>,
  rules: FourEyesRules,
  id: string,
  comment: string | null | undefined,
  decider: Decider,
  requestId: string | null,
): Promise<ProofRow> {
  const checkedComment = optionalOfficerText("comment", comment);
  return db.transaction().execute(async (trx) => {
    const { proof, proposal } = await lockProposal(trx, rules, id, decider, "confirm");
    if (proposal.action === "REOPEN_PROPOSED") {
      return setDecisionAside(trx, proof.id, proof.kind, { id: randomUUID(), reasonText: proposal.reason_text, comment: checkedComment, decider, requestId });
    }
    const outcome = (proposal as ProofDecisionRow & { outcome: "VERIFIED" | "FAILED" }).outcome;
    const confirmed = { reason: proposal.reason, reasonText: proposal.reason_text, comment: checkedComment, decider, requestId };
    const decisionId = randomUUID();
    const row = await changeProofStatus(trx, proof.id, {
      action: "confirmed",
      // A proposal exists only on a proof of a kind an officer decides (`assessProof` made it).
      kind: proof.kind,
      from: ["SUBMITTED"],
      audit: "with the decision",
      set: { status: outcome, assessment: outcome, proposal_id: null, ...decisionColumns(decisionId, "CONFIRMED", confirmed) },
    });
    await appendDecision(trx, { ...confirmed, id: decisionId, proofId: proof.id, action: "CONFIRMED", outcome });
    return row;
  });
}

/** A second officer rejects the proposal: a proposed decision's proof stays SUBMITTED, without a proposal, to be reviewed again; a proposed reopening's decision stays in force. */
export async function rejectProposal(
  db: Kysely<AopdDatabase>,
  rules: FourEyesRules,
  id: string,
  reason: string,
  decider: Decider,
  requestId: string | null,
): Promise<ProofRow> {
  const reasonText = optionalOfficerText("reason", reason);
  if (reasonText === null) throw new UserInputError("reason", "is required: say why the proposal is rejected, in 1 to 2000 characters.");
  return db.transaction().execute(async (trx) => {
    const { proof } = await lockProposal(trx, rules, id, decider, "reject");
    const row = await trx
      .updateTable("aopd_proof")
      .set({ proposal_id: null, updated_at: sql<Date>`now()` })
      .where("id", "=", proof.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await appendDecision(trx, {
      id: randomUUID(),
      proofId: proof.id,
      action: "REJECTED",
      outcome: null,
      reason: null,
      reasonText,
      comment: null,
      decider,
      requestId,
    });
    return row;
  });
}

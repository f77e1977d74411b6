import type { GatewayApi } from "./gateway-api.js";
import type { Proof, ProofKind } from "./proof-fields.js";
import { textOr } from "./translations.js";

export type Decision = "VERIFIED" | "FAILED";

/**
 * A code of `AopdDecisionReason`. The lists are the API's (`configuration.proofKinds`, each kind's
 * `decisionReasons`, read at start into the console's context), so a code added there shows here
 * without a release; one is required for FAILED, and `OTHER` needs words (docs/decisions.md).
 */
export type DecisionReason = string;

/** A reason code in words; a code the translations do not know yet (new in the API) shows as itself. */
export function reasonLabel(code: DecisionReason): string {
  return textOr(`reason.${code}`, code);
}

/** The reason that needs the officer's own words. */
export const reasonInWords = "OTHER";

export interface DecisionInput {
  decision: Decision;
  reason: DecisionReason | null;
  reasonText: string;
  comment: string;
}

/**
 * The mutation that records an officer's decision of each kind the API says an officer decides
 * (`configuration.proofKinds`): the documents are the console's own, one per kind.
 */
const assessMutationOf: Partial<Record<ProofKind, string>> = {
  signature: "assessSignatureProof",
  satoshi: "assessSatoshiProof",
  media: "assessMediaProof",
};

/**
 * The one place the console records an officer's decision (`assess…Proof`), which records the
 * caller as the decider (role `proofs:assess`).
 */
export async function decideProof(api: GatewayApi, kind: ProofKind, id: string, input: DecisionInput): Promise<Pick<Proof, "__typename" | "id" | "status">> {
  const field = assessMutationOf[kind];
  if (!field) throw new Error(`The console has no decision for ${kind} proofs.`);
  const data = await api.graphql<{ aopd: Record<string, Pick<Proof, "__typename" | "id" | "status">> }>(
    `mutation Decide($id: ID!, $assessment: AopdAssessment!, $reason: AopdDecisionReason, $reasonText: String, $comment: String) {
      aopd { ${field}(id: $id, assessment: $assessment, reason: $reason, reasonText: $reasonText, comment: $comment) { __typename id status } }
    }`,
    { id, assessment: input.decision, reason: input.reason, reasonText: input.reasonText || null, comment: input.comment || null },
  );
  return data.aopd[field]!;
}

/** The role a decision needs (docs/authorization.md). */
export const decideRole = "proofs:assess";

type Settled = Pick<Proof, "__typename" | "id" | "status">;

/**
 * Corrections: sets a decided Satoshi or media proof's decision aside (`reopenProof`); it returns to
 * SUBMITTED to be decided again, and the earlier decision stays in its history.
 */
export async function reopenProof(api: GatewayApi, id: string, reason: string): Promise<Settled> {
  const data = await api.graphql<{ aopd: { reopenProof: Settled } }>(
    `mutation Reopen($id: ID!, $reason: String!) { aopd { reopenProof(id: $id, reason: $reason) { __typename id status } } }`,
    { id, reason },
  );
  return data.aopd.reopenProof;
}

/**
 * Four eyes: a second officer confirms (the proposal takes effect) or rejects (the proof goes back
 * to review) another officer's proposal. The API refuses the proposer with CONFLICT and
 * `extensions.proposedBy`, whatever the page shows.
 */
export async function settleProposal(
  api: GatewayApi,
  id: string,
  settlement: { confirm: true; comment: string } | { confirm: false; reason: string },
): Promise<Settled> {
  if (settlement.confirm) {
    const data = await api.graphql<{ aopd: { confirmProofDecision: Settled } }>(
      `mutation Confirm($id: ID!, $comment: String) { aopd { confirmProofDecision(id: $id, comment: $comment) { __typename id status } } }`,
      { id, comment: settlement.comment || null },
    );
    return data.aopd.confirmProofDecision;
  }
  const data = await api.graphql<{ aopd: { rejectProofDecision: Settled } }>(
    `mutation Reject($id: ID!, $reason: String!) { aopd { rejectProofDecision(id: $id, reason: $reason) { __typename id status } } }`,
    { id, reason: settlement.reason },
  );
  return data.aopd.rejectProofDecision;
}

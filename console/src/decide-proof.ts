import type { GatewayApi } from "./gateway-api.js";
import type { Proof, ProofKind } from "./proof-fields.js";

export type Decision = "VERIFIED" | "FAILED";

/** The reason codes of `AopdDecisionReason` (docs/decisions.md); one is required for FAILED, and `OTHER` needs words. */
export const decisionReasons = [
  "ADDRESS_NOT_SHOWN",
  "EVIDENCE_UNREADABLE",
  "SUSPECTED_MANIPULATION",
  "THIRD_PARTY_WALLET",
  "WRONG_AMOUNT",
  "WRONG_SENDER",
  "WRONG_RECIPIENT",
  "TRANSACTION_FAILED",
  "OTHER",
] as const;
export type DecisionReason = (typeof decisionReasons)[number];

export interface DecisionInput {
  decision: Decision;
  reason: DecisionReason | null;
  reasonText: string;
  comment: string;
}

/**
 * The one place the console records an officer's decision: `assessMediaProof` and
 * `assessSatoshiProof`, which record the caller as the decider (role `proofs:assess`).
 */
export async function decideProof(api: GatewayApi, kind: Exclude<ProofKind, "signature">, id: string, input: DecisionInput): Promise<Pick<Proof, "__typename" | "id" | "status">> {
  const field = kind === "media" ? "assessMediaProof" : "assessSatoshiProof";
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

import type { GatewayApi } from "./gateway-api.js";
import { proofFields, type Proof, type ProofKind } from "./proof-fields.js";

export type Decision = "VERIFIED" | "FAILED";

/**
 * The one place the console records an officer's decision: today's `assessMediaProof` and
 * `assessSatoshiProof` mutations. When the decisions work adds a reason and moves them to the
 * `proofs:assess` role, only this module changes.
 */
export async function decideProof(api: GatewayApi, kind: Exclude<ProofKind, "signature">, id: string, decision: Decision, comment: string): Promise<Proof> {
  const field = kind === "media" ? "assessMediaProof" : "assessSatoshiProof";
  const data = await api.graphql<{ aopd: Record<string, Proof> }>(
    `mutation Decide($id: ID!, $assessment: AopdAssessment!, $comment: String) { aopd { ${field}(id: $id, assessment: $assessment, comment: $comment) { ${proofFields} } } }`,
    { id, assessment: decision, comment: comment || null },
  );
  return data.aopd[field]!;
}

/** The role a decision needs (docs/authorization.md). */
export const decideRole = "proofs:assess";

import type { GatewayApi } from "./gateway-api.js";
import type { Proof, ProofKind } from "./proof-fields.js";

export type Decision = "VERIFIED" | "FAILED";

/**
 * The one place the console records an officer's decision: today's `assessMediaProof` and
 * `assessSatoshiProof` mutations. When the decisions work adds a reason and moves them to the
 * `proofs:assess` role, only this module changes.
 */
export async function decideProof(api: GatewayApi, kind: Exclude<ProofKind, "signature">, id: string, decision: Decision, comment: string): Promise<Pick<Proof, "__typename" | "id" | "status" | "comment" | "updatedAt">> {
  const field = kind === "media" ? "assessMediaProof" : "assessSatoshiProof";
  const data = await api.graphql<{ aopd: Record<string, Pick<Proof, "__typename" | "id" | "status" | "comment" | "updatedAt">> }>(
    `mutation Decide($id: ID!, $assessment: AopdAssessment!, $comment: String) { aopd { ${field}(id: $id, assessment: $assessment, comment: $comment) { __typename id status comment updatedAt } } }`,
    { id, assessment: decision, comment: comment || null },
  );
  return data.aopd[field]!;
}

/** The role a decision needs (docs/authorization.md). */
export const decideRole = "proofs:assess";

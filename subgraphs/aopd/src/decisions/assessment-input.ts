import type { Assessment, DecisionReason, ProofKind } from "../database/database-schema.js";
import type { Decider } from "../audit/decider.js";
import type { DecisionRequest } from "./decide-proof.js";
import { optionalOfficerText } from "../audit/officer-text.js";
import { requireDecisionReason } from "./decision-reason.js";

/** The arguments of `assessSatoshiProof`, `assessMediaProof` and `assessSignatureProof`, as GraphQL passes them. */
export interface AssessmentInput {
  assessment: Assessment;
  reason?: DecisionReason | null;
  reasonText?: string | null;
  /** The officer's own comment on the decision. */
  comment?: string | null;
}

/**
 * Checks an officer's assessment whole before anything is written; each refusal names its argument.
 * `reasons`: the codes that fit the kind (its registry entry's), every code where none are given.
 */
export function decisionRequestOf(
  kind: DecisionRequest["kind"] & ProofKind,
  id: string,
  input: AssessmentInput,
  decider: Decider,
  requestId: string | null,
  reasons?: readonly DecisionReason[],
): DecisionRequest {
  return {
    kind,
    id,
    outcome: input.assessment,
    ...requireDecisionReason(input.assessment, input.reason, input.reasonText, reasons),
    comment: optionalOfficerText("comment", input.comment),
    decider,
    requestId,
  };
}

import type { Assessment, DecisionReason, ProofKind } from "../database/database-schema.js";
import type { Decider } from "../audit/decider.js";
import type { DecisionRequest } from "./decide-proof.js";
import { optionalOfficerText } from "../audit/officer-text.js";
import { requireDecisionReason } from "./decision-reason.js";

/** The arguments of `assessSatoshiProof` and `assessMediaProof`, as GraphQL passes them. */
export interface AssessmentInput {
  assessment: Assessment;
  reason?: DecisionReason | null;
  reasonText?: string | null;
  /** The officer's own comment on the decision. */
  comment?: string | null;
}

/** Checks an officer's assessment whole before anything is written; each refusal names its argument. */
export function decisionRequestOf(
  kind: DecisionRequest["kind"] & ProofKind,
  id: string,
  input: AssessmentInput,
  decider: Decider,
  requestId: string | null,
): DecisionRequest {
  return {
    kind,
    id,
    outcome: input.assessment,
    ...requireDecisionReason(input.assessment, input.reason, input.reasonText),
    comment: optionalOfficerText("comment", input.comment),
    decider,
    requestId,
  };
}

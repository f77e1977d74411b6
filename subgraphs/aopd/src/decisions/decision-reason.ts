import { UserInputError } from "@compliance-graph/errors";
import { optionalOfficerText } from "../audit/officer-text.js";
import type { Assessment, DecisionReason } from "../database/database-schema.js";

/**
 * The reason codes a decision names (`AopdDecisionReason`; docs/decisions.md says what each means).
 * A code is required for FAILED, so that decisions can be counted by cause; `OTHER` needs the free
 * text, which any code may carry.
 */
export const decisionReasons: readonly DecisionReason[] = [
  "ADDRESS_NOT_SHOWN",
  "EVIDENCE_UNREADABLE",
  "SUSPECTED_MANIPULATION",
  "THIRD_PARTY_WALLET",
  "WRONG_AMOUNT",
  "WRONG_SENDER",
  "WRONG_RECIPIENT",
  "TRANSACTION_FAILED",
  "SANCTIONED_ADDRESS",
  "OTHER",
];

export interface CheckedReason {
  reason: DecisionReason | null;
  reasonText: string | null;
}

/**
 * The reason of a decision, checked against its outcome before anything is written, and against
 * `allowed`: the codes that fit the proof's kind (its registry entry's `decisionReasons`), every
 * code where the caller names none.
 */
export function requireDecisionReason(
  outcome: Assessment,
  reason: DecisionReason | null | undefined,
  reasonText: string | null | undefined,
  allowed: readonly DecisionReason[] = decisionReasons,
): CheckedReason {
  const text = optionalOfficerText("reasonText", reasonText);
  if (reason !== null && reason !== undefined && !allowed.includes(reason)) {
    const of = allowed === decisionReasons ? "" : " of this kind of proof";
    throw new UserInputError("reason", `${String(reason)} is not a reason code${of}; allowed: ${allowed.join(", ")}.`);
  }
  if (outcome === "FAILED" && (reason === null || reason === undefined)) {
    throw new UserInputError("reason", `is required when the assessment is FAILED: one of ${allowed.join(", ")} (OTHER with reasonText).`);
  }
  if (reason === "OTHER" && text === null) throw new UserInputError("reasonText", "is required when the reason is OTHER: say why in 1 to 2000 characters.");
  return { reason: reason ?? null, reasonText: text };
}

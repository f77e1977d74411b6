import { UserInputError } from "@compliance-graph/errors";
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
  "OTHER",
];

export interface CheckedReason {
  reason: DecisionReason | null;
  reasonText: string | null;
}

const maxTextLength = 2_000;

/** A free text of the officer's: absent, or 1 to 2000 characters that are not all blank. */
export function optionalDecisionText(field: string, value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value.trim() === "") throw new UserInputError(field, "is blank; leave it out or write at least one character.");
  if (value.length > maxTextLength) throw new UserInputError(field, `has ${value.length} characters; at most ${maxTextLength} are allowed.`);
  return value;
}

/** The reason of a decision, checked against its outcome before anything is written. */
export function requireDecisionReason(outcome: Assessment, reason: DecisionReason | null | undefined, reasonText: string | null | undefined): CheckedReason {
  const text = optionalDecisionText("reasonText", reasonText);
  if (reason !== null && reason !== undefined && !decisionReasons.includes(reason)) {
    throw new UserInputError("reason", `${String(reason)} is not a reason code; allowed: ${decisionReasons.join(", ")}.`);
  }
  if (outcome === "FAILED" && (reason === null || reason === undefined)) {
    throw new UserInputError("reason", `is required when the assessment is FAILED: one of ${decisionReasons.join(", ")} (OTHER with reasonText).`);
  }
  if (reason === "OTHER" && text === null) throw new UserInputError("reasonText", "is required when the reason is OTHER: say why in 1 to 2000 characters.");
  return { reason: reason ?? null, reasonText: text };
}

import type { Assessment, DecisionAction, DecisionReason, ProofDecisionRow, ProofRow } from "../database/database-schema.js";
import type { Decider } from "../audit/decider.js";

/** One entry of a proof's decision history, as the API shows it (`AopdDecision`). */
export interface Decision {
  id: string;
  action: DecisionAction;
  decidedAt: Date;
  outcome: Assessment | null;
  reason: DecisionReason | null;
  reasonText: string | null;
  comment: string | null;
  decider: Decider;
}

export function toDecision(row: ProofDecisionRow): Decision {
  return {
    id: row.id,
    action: row.action,
    decidedAt: row.decided_at,
    outcome: row.outcome,
    reason: row.reason,
    reasonText: row.reason_text,
    comment: row.comment,
    decider: { subject: row.decider_subject, client: row.decider_client, username: row.decider_username, system: row.decider_system },
  };
}

/** The decision in force, from the proof row's copy of it (migration 0009); null when there is none. */
export function currentDecisionOf(row: ProofRow): Decision | null {
  if (row.decision_id === null || row.decided_at === null || row.decider_subject === null || row.decider_client === null) return null;
  return {
    id: row.decision_id,
    action: row.decision_action ?? "DECIDED",
    decidedAt: row.decided_at,
    outcome: row.assessment,
    reason: row.decision_reason,
    reasonText: row.decision_reason_text,
    comment: row.decision_comment,
    decider: { subject: row.decider_subject, client: row.decider_client, username: row.decider_username, system: row.decider_system ?? false },
  };
}

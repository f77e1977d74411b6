import { randomUUID } from "node:crypto";
import { sql, type Kysely, type UpdateObject } from "kysely";
import { appendAuditEntry } from "../audit/append-audit-entry.js";
import type { AopdDatabase, Assessment, DecisionAction, ProofKind, ProofRow } from "../database/database-schema.js";
import { changeProofStatus } from "../proofs/change-proof-status.js";
import type { Decider } from "../audit/decider.js";
import type { CheckedReason } from "./decision-reason.js";

export interface DecisionRequest extends CheckedReason {
  /** A kind an officer decides proofs of (kinds/proof-kinds.ts, `officerAssessedKinds`). */
  kind: ProofKind;
  id: string;
  outcome: Assessment;
  /** The decider's own comment; the requester's `comment` on the proof is never touched. */
  comment: string | null;
  decider: Decider;
  /** The request the decision came with (its audit entry names it); null for the chain watcher. */
  requestId: string | null;
  /** What the decider found besides the outcome (the chain watcher's block and confirmations). */
  alsoSet?: UpdateObject<AopdDatabase, "aopd_proof">;
}

/** One entry of the decision history, as it is appended. */
export interface DecisionEntry extends CheckedReason {
  id: string;
  proofId: string;
  action: DecisionAction;
  outcome: Assessment | null;
  comment: string | null;
  decider: Decider;
  requestId: string | null;
}

/** The decision columns of the proof row: a copy of the decision in force (see migration 0009). */
export function decisionColumns(decisionId: string, action: "DECIDED" | "CONFIRMED", decision: CheckedReason & { comment: string | null; decider: Decider }) {
  return {
    decision_id: decisionId,
    decision_action: action,
    decided_at: sql<Date>`now()`,
    decision_reason: decision.reason,
    decision_reason_text: decision.reasonText,
    decision_comment: decision.comment,
    decider_subject: decision.decider.subject,
    decider_client: decision.decider.client,
    decider_username: decision.decider.username,
    decider_system: decision.decider.system,
  };
}

/**
 * Appends an entry to the decision history and its entry to the audit trail, last in the caller's
 * transaction (the decision table takes no other write). A decision of aopd itself (the chain
 * watcher's) is the chain check's result on the trail: `CHAIN_CHECKED`.
 */
export async function appendDecision(db: Kysely<AopdDatabase>, entry: DecisionEntry): Promise<void> {
  await db
    .insertInto("aopd_proof_decision")
    .values({
      id: entry.id,
      proof_id: entry.proofId,
      action: entry.action,
      outcome: entry.outcome,
      reason: entry.reason,
      reason_text: entry.reasonText,
      comment: entry.comment,
      decider_subject: entry.decider.subject,
      decider_client: entry.decider.client,
      decider_username: entry.decider.username,
      decider_system: entry.decider.system,
    })
    .execute();
  await appendAuditEntry(db, {
    origin: { actor: entry.decider, requestId: entry.requestId },
    action: entry.action === "DECIDED" && entry.decider.system ? "CHAIN_CHECKED" : entry.action,
    proofId: entry.proofId,
    details: { decisionId: entry.id, outcome: entry.outcome, reason: entry.reason, reasonText: entry.reasonText, comment: entry.comment },
  });
}

/**
 * Decides a SUBMITTED proof VERIFIED or FAILED and records the decision, in one transaction: the
 * state machine's conditional UPDATE (so of two deciders at once exactly one wins, and the other is
 * refused as the proof has moved on) and the decision's row in the history. `now()` is the
 * transaction's start, so the row's copy and the history agree on the time to the millisecond. A
 * proposal awaiting confirmation (four eyes) is superseded: only the chain watcher decides
 * directly where four eyes apply, and what the chain shows needs no second officer.
 */
export async function decideProof(db: Kysely<AopdDatabase>, request: DecisionRequest): Promise<ProofRow> {
  const decisionId = randomUUID();
  return db.transaction().execute(async (trx) => {
    const row = await changeProofStatus(trx, request.id, {
      action: "assessed",
      kind: request.kind,
      from: ["SUBMITTED"],
      audit: "with the decision",
      set: { ...request.alsoSet, status: request.outcome, assessment: request.outcome, proposal_id: null, ...decisionColumns(decisionId, "DECIDED", request) },
    });
    await appendDecision(trx, { ...request, id: decisionId, proofId: row.id, action: "DECIDED" });
    return row;
  });
}

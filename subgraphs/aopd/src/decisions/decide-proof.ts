import { randomUUID } from "node:crypto";
import { sql, type Kysely, type UpdateObject } from "kysely";
import type { AopdDatabase, Assessment, ProofKind, ProofRow } from "../database/database-schema.js";
import { changeProofStatus } from "../ingestion/change-proof-status.js";
import type { Decider } from "./decider.js";
import type { CheckedReason } from "./decision-reason.js";

export interface DecisionRequest extends CheckedReason {
  kind: Extract<ProofKind, "satoshi" | "media">;
  id: string;
  outcome: Assessment;
  /** The decider's own comment; the requester's `comment` on the proof is never touched. */
  comment: string | null;
  decider: Decider;
  /** What the decider found besides the outcome (the chain watcher's block and confirmations). */
  alsoSet?: UpdateObject<AopdDatabase, "aopd_proof">;
}

/** The decision columns of the proof row: a copy of the decision in force (see migration 0009). */
function decisionColumns(decisionId: string, request: DecisionRequest) {
  return {
    decision_id: decisionId,
    decided_at: sql<Date>`now()`,
    decision_reason: request.reason,
    decision_reason_text: request.reasonText,
    decision_comment: request.comment,
    decider_subject: request.decider.subject,
    decider_client: request.decider.client,
    decider_username: request.decider.username,
    decider_system: request.decider.system,
  };
}

/**
 * Decides a SUBMITTED proof VERIFIED or FAILED and records the decision, in one transaction: the
 * state machine's conditional UPDATE (so of two deciders at once exactly one wins, and the other is
 * refused as the proof has moved on) and the decision's row in the history. `now()` is the
 * transaction's start, so the row's copy and the history agree on the time to the millisecond.
 */
export async function decideProof(db: Kysely<AopdDatabase>, request: DecisionRequest): Promise<ProofRow> {
  const decisionId = randomUUID();
  return db.transaction().execute(async (trx) => {
    const row = await changeProofStatus(trx, request.id, {
      action: "assessed",
      kind: request.kind,
      from: ["SUBMITTED"],
      set: { ...request.alsoSet, status: request.outcome, assessment: request.outcome, ...decisionColumns(decisionId, request) },
    });
    await trx
      .insertInto("aopd_proof_decision")
      .values({
        id: decisionId,
        proof_id: row.id,
        action: "DECIDED",
        outcome: request.outcome,
        reason: request.reason,
        reason_text: request.reasonText,
        comment: request.comment,
        decider_subject: request.decider.subject,
        decider_client: request.decider.client,
        decider_username: request.decider.username,
        decider_system: request.decider.system,
      })
      .execute();
    return row;
  });
}

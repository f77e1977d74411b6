import { randomUUID } from "node:crypto";
import { ConflictError, NotFoundError, UserInputError } from "@compliance-graph/errors";
import { isUuid } from "@compliance-graph/filter";
import { sql, type Kysely } from "kysely";
import type { AopdDatabase, ProofKind, ProofRow } from "../database/database-schema.js";
import { changeProofStatus } from "../proofs/change-proof-status.js";
import { appendDecision } from "./decide-proof.js";
import type { Decider } from "../audit/decider.js";
import { optionalOfficerText } from "../audit/officer-text.js";
import { requireFourEyesOfficer, type FourEyesRules } from "./four-eyes-officer.js";

/** The columns of the decision in force, cleared when it is set aside. */
const noDecision = {
  status: "SUBMITTED",
  assessment: null,
  chain_check_until: null,
  proposal_id: null,
  decision_id: null,
  decision_action: null,
  decided_at: null,
  decision_reason: null,
  decision_reason_text: null,
  decision_comment: null,
  decider_subject: null,
  decider_client: null,
  decider_username: null,
  decider_system: null,
} as const;

/**
 * Sets a decision aside: a VERIFIED or FAILED proof an officer decided returns to SUBMITTED, to be
 * decided again. Nothing is erased: the decision stays in the history and the reopening is
 * appended after it, in the transaction that moves the status (whose event the log records as for
 * any status change). The chain watcher does not take the proof up again (`chain_check_until` is
 * cleared): a person reopened it, so a person decides it.
 *
 * Only a decision a person made can be set aside by one: `officerDecides` is the registry's rule
 * (kinds/proof-kinds.ts), passed in by the edge. Every Satoshi and media proof; a signature proof
 * only when its evidence left it for review (`left_for_review`, never cleared, so the reopened
 * proof is SUBMITTED for review again and `assessSignatureProof` decides it as before). A proof
 * its evidence decided (a verified signature) is refused: there is no officer's decision to undo.
 *
 * Where the kind is under four eyes, one officer cannot undo what two decided: the reopening is a
 * proposal (`REOPEN_PROPOSED`), and the decision stays in force until a second officer confirms it
 * (settle-proposal.ts, which calls `setDecisionAside`).
 */
export async function reopenProof(
  db: Kysely<AopdDatabase>,
  rules: FourEyesRules,
  id: string,
  reason: string,
  decider: Decider,
  requestId: string | null,
  officerDecides: (proof: Pick<ProofRow, "kind" | "left_for_review">) => boolean,
): Promise<ProofRow> {
  const reasonText = optionalOfficerText("reason", reason);
  if (reasonText === null) throw new UserInputError("reason", "is required: say why the decision is set aside, in 1 to 2000 characters.");
  if (!isUuid(id)) throw new NotFoundError("The proof", id);
  const current = await db.selectFrom("aopd_proof").select(["kind", "status", "left_for_review"]).where("id", "=", id.toLowerCase()).executeTakeFirst();
  if (!current) throw new NotFoundError("The proof", id);
  if (!officerDecides(current)) {
    throw new UserInputError(
      "id",
      `names a ${current.kind} proof that is ${current.status} and was not left for an officer's review: its evidence decides it, ` +
        "so there is no officer's decision to set aside. Only a decision an officer made can be reopened.",
    );
  }
  const kind = current.kind;
  if (rules.fourEyesKinds.includes(kind)) {
    requireFourEyesOfficer(decider, rules, "propose a reopening");
    return proposeReopening(db, id.toLowerCase(), kind, reasonText, decider, requestId);
  }
  return db.transaction().execute((trx) => setDecisionAside(trx, id, kind, { id: randomUUID(), reasonText, comment: null, decider, requestId }));
}

/** The reopening itself, in the caller's transaction: the status change and its `REOPENED` entry. */
export async function setDecisionAside(
  trx: Kysely<AopdDatabase>,
  proofId: string,
  kind: ProofKind,
  reopening: { id: string; reasonText: string | null; comment: string | null; decider: Decider; requestId: string | null },
): Promise<ProofRow> {
  const row = await changeProofStatus(trx, proofId, { action: "reopened", kind, from: ["VERIFIED", "FAILED"], audit: "with the decision", set: noDecision });
  await appendDecision(trx, { ...reopening, proofId: row.id, action: "REOPENED", outcome: null, reason: null });
  return row;
}

/** As `proposeDecision`, on a decided proof: the UPDATE takes it only while it has no proposal, so of two proposals at once one wins. */
async function proposeReopening(
  db: Kysely<AopdDatabase>,
  id: string,
  kind: ProofKind,
  reasonText: string,
  decider: Decider,
  requestId: string | null,
): Promise<ProofRow> {
  const proposalId = randomUUID();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("aopd_proof")
      .set({ proposal_id: proposalId, updated_at: sql<Date>`now()` })
      .where("id", "=", id)
      .where("kind", "=", kind)
      .where("status", "in", ["VERIFIED", "FAILED"])
      .where("proposal_id", "is", null)
      .returningAll()
      .executeTakeFirst();
    if (!row) {
      const now = await trx.selectFrom("aopd_proof").select(["status", "proposal_id"]).where("id", "=", id).executeTakeFirstOrThrow();
      if (now.status !== "VERIFIED" && now.status !== "FAILED") {
        throw new ConflictError(`The proof is ${now.status}; it can be reopened only when VERIFIED or FAILED.`, { status: now.status });
      }
      throw new ConflictError("The proof has a proposed reopening awaiting a second officer; confirm or reject that one first.", { status: now.status });
    }
    await appendDecision(trx, {
      id: proposalId,
      proofId: row.id,
      action: "REOPEN_PROPOSED",
      outcome: null,
      reason: null,
      reasonText,
      comment: null,
      decider,
      requestId,
    });
    return row;
  });
}

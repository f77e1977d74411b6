import { randomUUID } from "node:crypto";
import { NotFoundError, UserInputError } from "@compliance-graph/errors";
import { isUuid } from "@compliance-graph/filter";
import type { Kysely } from "kysely";
import type { AopdDatabase, ProofKind, ProofRow } from "../database/database-schema.js";
import { changeProofStatus } from "../proofs/change-proof-status.js";
import { appendDecision } from "./decide-proof.js";
import type { Decider } from "../audit/decider.js";
import { optionalOfficerText } from "../audit/officer-text.js";

/**
 * Sets a decision aside: a VERIFIED or FAILED Satoshi or media proof returns to SUBMITTED, to be
 * decided again. Nothing is erased: the decision stays in the history and the reopening is
 * appended after it, in the transaction that moves the status (whose event the log records as for
 * any status change). The chain watcher does not take the proof up again (`chain_check_until` is
 * cleared): a person reopened it, so a person decides it. Only a proof of a kind an officer
 * decides (`officerKinds`: the registry's `officerDecidedKinds`) can be reopened.
 */
export async function reopenProof(
  db: Kysely<AopdDatabase>,
  id: string,
  reason: string,
  decider: Decider,
  requestId: string | null,
  officerKinds: readonly ProofKind[],
): Promise<ProofRow> {
  const reasonText = optionalOfficerText("reason", reason);
  if (reasonText === null) throw new UserInputError("reason", "is required: say why the decision is set aside, in 1 to 2000 characters.");
  if (!isUuid(id)) throw new NotFoundError("The proof", id);
  const current = await db.selectFrom("aopd_proof").select(["kind", "status"]).where("id", "=", id.toLowerCase()).executeTakeFirst();
  if (!current) throw new NotFoundError("The proof", id);
  const kind = officerKinds.find((candidate) => candidate === current.kind);
  if (!kind) throw new UserInputError("id", `names a ${current.kind} proof; only ${officerKinds.join(" and ")} proofs are decided by people and can be reopened.`);
  const entryId = randomUUID();
  return db.transaction().execute(async (trx) => {
    const row = await changeProofStatus(trx, id, {
      action: "reopened",
      kind,
      from: ["VERIFIED", "FAILED"],
      audit: "with the decision",
      set: {
        status: "SUBMITTED",
        assessment: null,
        chain_check_until: null,
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
      },
    });
    await appendDecision(trx, { id: entryId, proofId: row.id, action: "REOPENED", outcome: null, reason: null, reasonText, comment: null, decider, requestId });
    return row;
  });
}

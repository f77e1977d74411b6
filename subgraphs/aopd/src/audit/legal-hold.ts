import { ConflictError, NotFoundError, UserInputError } from "@compliance-graph/errors";
import { isUuid } from "@compliance-graph/filter";
import { sql, type Kysely } from "kysely";
import type { AopdDatabase, ProofRow } from "../database/database-schema.js";
import { optionalOfficerText } from "./officer-text.js";
import { appendAuditEntry } from "./append-audit-entry.js";
import type { AuditOrigin } from "./audit-origin.js";

/**
 * Places or lifts a proof's legal hold, with its reason, and records it on the audit trail in the
 * same transaction. A held proof is kept past its retention: the database refuses to delete it
 * (migration 0013). Only the hold columns change: not `updated_at`, which is the proof's own last
 * change (a hold is a matter about the proof, not a change of its evidence or decision), and not
 * the status, so no proof event is sent.
 */
export async function changeLegalHold(db: Kysely<AopdDatabase>, id: string, place: boolean, reason: string, origin: AuditOrigin): Promise<ProofRow> {
  const reasonText = optionalOfficerText("reason", reason);
  if (reasonText === null) throw new UserInputError("reason", `is required: say why the hold is ${place ? "placed" : "lifted"}, in 1 to 2000 characters.`);
  if (!isUuid(id)) throw new NotFoundError("The proof", id);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("aopd_proof")
      .set(place ? { legal_hold_since: sql<Date>`now()`, legal_hold_reason: reasonText } : { legal_hold_since: null, legal_hold_reason: null })
      .where("id", "=", id.toLowerCase())
      .where("legal_hold_since", place ? "is" : "is not", null)
      .returningAll()
      .executeTakeFirst();
    if (!row) {
      const current = await trx.selectFrom("aopd_proof").select("legal_hold_since").where("id", "=", id.toLowerCase()).executeTakeFirst();
      if (!current) throw new NotFoundError("The proof", id);
      throw new ConflictError(
        place ? "The proof is already on legal hold; lift that hold first to place another." : "The proof is not on legal hold; there is nothing to lift.",
      );
    }
    await appendAuditEntry(trx, { origin, action: place ? "LEGAL_HOLD_PLACED" : "LEGAL_HOLD_LIFTED", proofId: row.id, details: { reason: reasonText } });
    return row;
  });
}

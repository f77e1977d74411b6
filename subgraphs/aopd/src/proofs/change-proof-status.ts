import { isUuid } from "@compliance-graph/filter";
import { sql, type Kysely, type UpdateObject } from "kysely";
import { appendAuditEntry, type AuditEvent } from "../audit/append-audit-entry.js";
import { evidenceHashOf } from "./evidence-hash.js";
import { ProofStateRefusal, UnknownProofRefusal, type ProofRefusal } from "./proof-refusal.js";
import type { AopdDatabase, ProofKind, ProofRow, ProofStatus } from "../database/database-schema.js";
import { inTransaction } from "../database/in-transaction.js";

export interface StatusChange {
  /** What the change does, as a past participle for messages ("finalized", "assessed", ...). */
  action: string;
  kind: ProofKind;
  from: readonly ProofStatus[];
  /** The new columns (values, or expressions over the row as it was); `status` among them. `updated_at` is set here. */
  set: UpdateObject<AopdDatabase, "aopd_proof"> & { status: ProofStatus };
  /** Refuse when the due time has passed, even before the expiry job marks the proof. */
  beforeDue?: boolean;
  /**
   * The change's entry on the audit trail (who, why, what changed), appended in the change's
   * transaction; or `"with the decision"`: a decision's change, whose entry `appendDecision`
   * appends in the same transaction, with the decision.
   */
  audit: Omit<AuditEvent, "proofId"> | "with the decision";
}

/**
 * The state machine's one write path: a conditional UPDATE that succeeds only from an allowed
 * status, so two concurrent changes of one proof cannot both win (the second finds the status
 * already moved and is refused). The table's trigger records the event in the same statement, and
 * the change's audit entry is appended in the same transaction (the caller's, or one of its own),
 * so no accepted change goes unrecorded. A refused change changes nothing and says why, as a
 * `ProofRefusal`: `unknown_proof`, `wrong_kind` (naming the argument `id`), `wrong_status` or
 * `expired` (with the proof's status).
 */
export async function changeProofStatus(db: Kysely<AopdDatabase>, id: string, change: StatusChange): Promise<ProofRow> {
  if (!isUuid(id)) throw UnknownProofRefusal.byId(id);
  const updated = await inTransaction(db, async (trx) => {
    let update = trx
      .updateTable("aopd_proof")
      .set({ ...change.set, updated_at: sql<Date>`now()` })
      .where("id", "=", id.toLowerCase())
      .where("kind", "=", change.kind)
      .where("status", "in", [...change.from]);
    if (change.beforeDue) update = update.where((eb) => eb.or([eb("due_at", "is", null), eb("due_at", ">", sql<Date>`now()`)]));
    const row = await update.returningAll().executeTakeFirst();
    if (row && change.audit !== "with the decision")
      await appendAuditEntry(trx, { ...change.audit, proofId: row.id, details: withEvidenceHash(change.audit, row) });
    return row;
  });
  if (updated) return updated;
  throw await refusalOf(db, id, change);
}

/**
 * A submission's entry names its evidence by the hash a receipt states of it (`evidenceHashOf`), so
 * that a receipt, the trail and the evidence can be matched by anyone holding one of them.
 */
function withEvidenceHash(audit: Omit<AuditEvent, "proofId">, row: ProofRow): AuditEvent["details"] {
  return audit.action === "SUBMITTED" ? { ...audit.details, evidenceHash: evidenceHashOf(row) } : audit.details;
}

/** Why a change found no row to update, from the row as it now stands. */
async function refusalOf(db: Kysely<AopdDatabase>, id: string, change: StatusChange): Promise<ProofRefusal> {
  const current = await db.selectFrom("aopd_proof").select(["kind", "status", "due_at"]).where("id", "=", id.toLowerCase()).executeTakeFirst();
  if (!current) return UnknownProofRefusal.byId(id);
  if (current.kind !== change.kind) {
    return new ProofStateRefusal("wrong_kind", `names a ${current.kind} proof; only ${change.kind} proofs can be ${change.action}.`, undefined, {
      field: "id",
    });
  }
  if (!change.from.includes(current.status)) {
    return new ProofStateRefusal(
      "wrong_status",
      `The proof is ${current.status}; it can be ${change.action} only when ${change.from.join(" or ")}.`,
      current.status,
    );
  }
  return new ProofStateRefusal(
    "expired",
    `The proof expired at ${current.due_at?.toISOString() ?? "its due time"}; it can no longer be ${change.action}.`,
    current.status,
  );
}

import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import type { ScreeningChange } from "./rescreen-proofs.js";

/**
 * The one place a re-screening's changes reach the audit trail. The audit trail (hash-chained,
 * append-only, DESIGN.md "Decisions and records") is being built on its own branch; when it lands,
 * this function appends one entry per change, in the re-screening's transaction, with the list
 * version as the actor's reason. Until then the changes are on the proof event log only
 * (`SCREENING_CHANGED`, written by the table's trigger in the same transaction), and this records
 * nothing.
 */
export async function appendScreeningChangesToAuditTrail(
  _trx: Kysely<AopdDatabase>,
  _changes: readonly ScreeningChange[],
  _listVersion: { list: string; publishedOn: string },
): Promise<void> {
  // Integration point for the audit trail (see the comment above).
}

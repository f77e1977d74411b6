import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";

/**
 * The entries committed but not chained yet, and not set aside: what the sequencer takes up next
 * (`chainAuditEntries`), and what the replay counts only once they authenticate
 * (`authenticateUnchainedEntries`). Callers order and page it.
 */
export function entriesWaitingToBeChained(db: Kysely<AopdDatabase>) {
  return db
    .selectFrom("aopd_audit_entry")
    .selectAll()
    .where("seq", "is", null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("aopd_audit_set_aside as s").select("s.insertion").whereRef("s.insertion", "=", "aopd_audit_entry.insertion"))),
    );
}

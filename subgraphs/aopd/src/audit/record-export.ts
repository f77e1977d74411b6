import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { appendAuditEntry } from "./append-audit-entry.js";
import type { AuditOrigin } from "./audit-origin.js";

/**
 * Records an export once it has been written: who, through which door, with which filter (as the
 * JSON the caller sent, kept as text: a filter may hold any GraphQL value), and how many rows left.
 * A read changes nothing to wrap a transaction around, so the entry follows the export; an export
 * that failed before its end is not recorded, one cut off mid-download is (its rows were sent).
 */
export function recordExport(
  db: Kysely<AopdDatabase>,
  origin: AuditOrigin,
  what: "PROOFS_EXPORTED" | "AUDIT_TRAIL_EXPORTED",
  via: string,
  filter: unknown,
  rows: number,
): Promise<void> {
  return appendAuditEntry(db, { origin, action: what, proofId: null, details: { via, filter: JSON.stringify(filter ?? null), rows } });
}

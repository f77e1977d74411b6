import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { appendAuditEntry } from "./append-audit-entry.js";
import type { AuditOrigin } from "./audit-origin.js";

/** Why an export stopped before its end: the client left, aopd was stopping, or reading or writing failed. */
export type ExportCutReason = "client gone" | "shutdown" | "error";

/** How an export ended: whole, or cut short (then `rows` are those written before the cut). */
export type ExportOutcome = { outcome: "complete" } | { outcome: "cut short"; why: ExportCutReason };

/**
 * Records an export once it has ended: who, through which door, with which filter (as the JSON the
 * caller sent, kept as text: a filter may hold any GraphQL value), how many rows left, and whether
 * the file was whole or cut short (and why). A read changes nothing to wrap a transaction around,
 * so the entry follows the export; an export refused before its first byte is not recorded, every
 * one that started sending is, once.
 */
export function recordExport(
  db: Kysely<AopdDatabase>,
  origin: AuditOrigin,
  what: "PROOFS_EXPORTED" | "AUDIT_TRAIL_EXPORTED",
  via: string,
  filter: unknown,
  rows: number,
  ended: ExportOutcome = { outcome: "complete" },
): Promise<void> {
  return appendAuditEntry(db, { origin, action: what, proofId: null, details: { via, filter: JSON.stringify(filter ?? null), rows, ...ended } });
}

import type { AuditEntryRow } from "../database/database-schema.js";
import { auditEntryCanonicalJson } from "./audit-entry-leaf.js";

/** An audit entry as the API shows it (`AopdAuditEntry`). */
export function toAuditEntry(row: AuditEntryRow) {
  return {
    // bigint: a string from pg, a number from PGlite; null until chained.
    seq: row.seq === null ? null : String(row.seq),
    occurredAt: row.occurred_at,
    action: row.action,
    proofId: row.proof_id,
    actor: { subject: row.actor_subject, username: row.actor_username, client: row.actor_client, system: row.actor_system },
    requestId: row.request_id,
    traceId: row.trace_id,
    details: row.details,
    hash: row.hash,
    previousHash: row.previous_hash,
    canonical: row.seq === null ? null : auditEntryCanonicalJson(row),
  };
}

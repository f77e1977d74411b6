import type { AuditEntryRow } from "../database/database-schema.js";
import { canonicalJson, type AuditDetail } from "./audit-entry-hash.js";
import { leafHash } from "./merkle-tree.js";

/**
 * A chained entry as the audit log's leaf: its canonical JSON (RFC 8785: members sorted by name,
 * no white space, numbers as integers, strings as JSON writes them), which the API returns as the
 * entry's `canonical` and a receipt carries. Its place (`seq`) is inside, so a leaf cannot be
 * moved; its details are the object stored as canonical JSON at append. The chain's own hashes
 * and the authentication are not: the leaf is what a reader needs to know happened.
 */
export function auditEntryCanonicalJson(row: AuditEntryRow): string {
  if (row.seq === null) throw new Error("an entry is a leaf of the audit log only once it is chained");
  return canonicalJson({
    seq: Number(row.seq),
    occurredAt: row.occurred_at,
    action: row.action,
    proofId: row.proof_id,
    actor: { subject: row.actor_subject, client: row.actor_client, username: row.actor_username, system: row.actor_system },
    requestId: row.request_id,
    traceId: row.trace_id,
    details: JSON.parse(row.details) as AuditDetail,
  });
}

/** The RFC 9162 leaf hash of a chained entry: SHA-256(0x00 || its canonical JSON). */
export function auditEntryLeafHash(row: AuditEntryRow): Buffer {
  return leafHash(auditEntryCanonicalJson(row));
}

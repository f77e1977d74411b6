import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { AuditEntryRow } from "../database/database-schema.js";
import type { AuditEntryContent } from "./audit-entry-hash.js";
import type { AuditKeyring } from "./audit-keyring.js";

/** What an entry's authentication covers: everything its hash covers but its place in the chain, which the sequencer gives later. */
export type AuthenticatedAuditContent = Omit<AuditEntryContent, "seq" | "previousHash">;

/** The three columns aopd writes with an entry (migration 0019). */
export interface AuditEntryAuthentication {
  auth_key_id: string;
  auth_nonce: string;
  auth_mac: string;
}

/**
 * HMAC-SHA-256 under the keyring's current key over the entry's content, its time and a fresh
 * nonce (16 random bytes, hex): a copy of a genuine entry reuses its nonce, which the table
 * refuses (a unique index), so authenticated entries cannot be replayed either.
 */
export function authenticateAuditEntry(keyring: AuditKeyring, content: AuthenticatedAuditContent): AuditEntryAuthentication {
  const nonce = randomBytes(16).toString("hex");
  return { auth_key_id: keyring.current.id, auth_nonce: nonce, auth_mac: mac(keyring.current.secret, keyring.current.id, nonce, content) };
}

/** Why a stored entry's authentication fails, or null when it holds. */
export function auditEntryAuthenticationProblem(keyring: AuditKeyring, row: AuditEntryRow): string | null {
  if (row.auth_key_id === null || row.auth_nonce === null || row.auth_mac === null) return "carries no authentication (it was not written by aopd)";
  const key = keyring.byId.get(row.auth_key_id);
  if (!key) return `names the audit key ${JSON.stringify(row.auth_key_id)}, which this configuration does not hold (AOPD_AUDIT_KEY, AOPD_AUDIT_PREVIOUS_KEYS)`;
  const expected = Buffer.from(mac(key.secret, key.id, row.auth_nonce, contentOfRow(row)), "hex");
  const given = Buffer.from(row.auth_mac, "hex");
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return `does not authenticate under audit key ${JSON.stringify(key.id)} (written or changed by someone other than aopd)`;
  return null;
}

function contentOfRow(row: AuditEntryRow): AuthenticatedAuditContent {
  return {
    occurredAt: row.occurred_at,
    action: row.action,
    proofId: row.proof_id,
    actorSubject: row.actor_subject,
    actorClient: row.actor_client,
    actorUsername: row.actor_username,
    actorSystem: row.actor_system,
    requestId: row.request_id,
    traceId: row.trace_id,
    details: row.details,
  };
}

/** One JSON array, so that no two different contents share a text; the version first, so that a later form cannot be confused with this one. */
function mac(secret: Buffer, keyId: string, nonce: string, content: AuthenticatedAuditContent): string {
  const text = JSON.stringify([
    "aopd-audit-entry/v1",
    keyId,
    nonce,
    content.occurredAt.toISOString(),
    content.action,
    content.proofId,
    content.actorSubject,
    content.actorClient,
    content.actorUsername,
    content.actorSystem,
    content.requestId,
    content.traceId,
    content.details,
  ]);
  return createHmac("sha256", secret).update(text, "utf8").digest("hex");
}

import { createHash } from "node:crypto";
import type { AuditEntryRow } from "../database/database-schema.js";

/** The `previous_hash` of the first entry: no entry came before it. */
export const genesisHash = "0".repeat(64);

/** What an entry's hash covers: every column but the hash itself. */
export interface AuditEntryContent {
  /** The entry's place in the chain, as decimal digits (bigint). */
  seq: string;
  occurredAt: Date;
  action: string;
  proofId: string | null;
  actorSubject: string;
  actorClient: string;
  actorUsername: string | null;
  actorSystem: boolean;
  requestId: string | null;
  traceId: string | null;
  /** Canonical JSON (`canonicalJson`), stored as this very text. */
  details: string;
  previousHash: string;
}

/**
 * SHA-256 (hex) over the entry's content: the previous entry's hash, the entry's `seq`, its time
 * (ISO 8601, milliseconds, UTC), then the rest as one JSON array (`auditEntryBody`), each part on a
 * line of its own. The first three have fixed shapes without line breaks and JSON quotes every
 * string of the body, so no two different entries share a text. The previous hash inside makes the
 * entries a chain: changing, removing or moving one changes what every later entry would have had
 * to hash. PostgreSQL computes the same text and hash when it appends one entry
 * (append-audit-entry.ts); this function is the verifier's and the batch append's.
 */
export function auditEntryHash(entry: AuditEntryContent): string {
  const text = `${entry.previousHash}\n${entry.seq}\n${entry.occurredAt.toISOString()}\n${auditEntryBody(entry)}`;
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The hash a stored entry (a row of aopd_audit_entry) has at place `seq` after `previousHash`: what the chaining writes and the verifier recomputes. */
export function storedAuditEntryHash(row: AuditEntryRow, seq: string, previousHash: string): string {
  return auditEntryHash({
    seq,
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
    previousHash,
  });
}

/** The part of the hashed text known before the entry takes its place in the chain. */
export function auditEntryBody(entry: Omit<AuditEntryContent, "seq" | "occurredAt" | "previousHash">): string {
  return JSON.stringify([
    entry.action,
    entry.proofId,
    entry.actorSubject,
    entry.actorClient,
    entry.actorUsername,
    entry.actorSystem,
    entry.requestId,
    entry.traceId,
    entry.details,
  ]);
}

/** A value the details of an entry may hold: what JSON writes one way only. */
export type AuditDetail = string | number | boolean | null | Date | readonly AuditDetail[] | { readonly [key: string]: AuditDetail | undefined };

/**
 * JSON with object keys sorted and nothing else left to choice: dates as ISO text, undefined
 * members left out, numbers only when they are safe integers (a decimal amount is sent as text),
 * so the text hashed is the text any later reader rebuilds from the same values.
 */
export function canonicalJson(value: AuditDetail): string {
  if (value === null || typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new TypeError(`audit details hold safe integers only; send ${value} as text`);
    return String(value);
  }
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map((item: AuditDetail) => canonicalJson(item)).join(",")}]`;
  const object = value as { readonly [key: string]: AuditDetail | undefined };
  const members = Object.keys(object)
    .filter((key) => object[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key]!)}`);
  return `{${members.join(",")}}`;
}

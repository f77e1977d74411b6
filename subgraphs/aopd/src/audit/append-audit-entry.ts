import { isSpanContextValid, trace } from "@opentelemetry/api";
import { sql, type Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { inTransaction } from "../database/in-transaction.js";
import type { AuditAction } from "./audit-action.js";
import { auditEntryBody, auditEntryHash, canonicalJson, type AuditDetail, type AuditEntryContent } from "./audit-entry-hash.js";
import type { AuditOrigin } from "./audit-origin.js";
import { auditTrailSwitch } from "./audit-trail-switch.js";

/** One action to record. */
export interface AuditEvent {
  origin: AuditOrigin;
  action: AuditAction;
  /** The proof acted on; null for actions on no one proof (an export). */
  proofId: string | null;
  /** What changed, as the action's own small object (canonical JSON on the trail). */
  details: { readonly [key: string]: AuditDetail | undefined };
}

/**
 * Appends entries to the audit trail, in the caller's transaction when it is given one, so that an
 * accepted change and its entry commit together or not at all.
 *
 * Threat: an entry changed, removed or moved after the fact, by anyone with the database's
 * credentials, to hide who did what. The table refuses UPDATE and DELETE (migration 0012); the
 * chain makes what the trigger cannot stop (a superuser disabling it) visible: each entry's hash
 * covers its content and the previous entry's hash, `npm run verify-audit` recomputes them.
 *
 * Several replicas append at once: the chain head's one row is locked (`FOR UPDATE`) for the rest of
 * the transaction, so appends take their places one after another and each builds on the hash of
 * the entry committed before it. The lock is held until commit: callers append last in their
 * transaction (after their own row locks, which keeps the lock order proof row, then head), and one
 * entry is one statement (`appendOne`), so the head is held for that statement and the commit. The time is the transaction's (`now()`, as decisions record
 * it), at millisecond precision as stored.
 */
export async function appendAuditEntries(db: Kysely<AopdDatabase>, events: readonly AuditEvent[]): Promise<void> {
  if (!auditTrailSwitch.recording || events.length === 0) return;
  const traceId = activeTraceId();
  if (events.length === 1) return appendOne(db, events[0]!, traceId);
  await inTransaction(db, async (trx) => {
    const { rows } = await sql<{ seq: string; hash: string; now: Date }>`
      SELECT seq::text AS seq, hash, now()::timestamptz(3) AS now FROM aopd_audit_head FOR UPDATE
    `.execute(trx);
    const head = rows[0];
    if (!head) throw new Error("The audit trail has no head row; migration 0012 creates it.");
    let seq = BigInt(head.seq);
    let previousHash = head.hash;
    const entries = events.map((event) => {
      seq += 1n;
      const content = { seq: seq.toString(), occurredAt: head.now, previousHash, ...contentOf(event, traceId) };
      previousHash = auditEntryHash(content);
      return { ...columnsOf(content), previous_hash: content.previousHash, hash: previousHash };
    });
    await trx.insertInto("aopd_audit_entry").values(entries).execute();
    await trx.updateTable("aopd_audit_head").set({ seq: seq.toString(), hash: previousHash }).execute();
  });
}

/**
 * One entry in one statement, so that the head's lock is held for the statement and the commit
 * only, not for round trips: PostgreSQL takes the head, computes the hash over the same text as
 * `auditEntryHash` (the body built here, the previous hash, `seq` and time there), inserts the
 * entry and moves the head.
 */
async function appendOne(db: Kysely<AopdDatabase>, event: AuditEvent, traceId: string | null): Promise<void> {
  const content = contentOf(event, traceId);
  const columns = columnsOf({ ...content, seq: "0", occurredAt: new Date(0) });
  await sql`
    WITH head AS (
      SELECT seq + 1 AS seq, hash AS previous_hash, now()::timestamptz(3) AS occurred_at FROM aopd_audit_head FOR UPDATE
    ), entry AS (
      INSERT INTO aopd_audit_entry (seq, occurred_at, action, proof_id, actor_subject, actor_client, actor_username, actor_system, request_id, trace_id, details, previous_hash, hash)
      SELECT seq, occurred_at, ${columns.action}, ${columns.proof_id}::uuid, ${columns.actor_subject}, ${columns.actor_client}, ${columns.actor_username},
        ${columns.actor_system}, ${columns.request_id}, ${columns.trace_id}, ${columns.details}, previous_hash,
        encode(sha256(convert_to(
          previous_hash || E'\\n' || seq::text || E'\\n' || to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || E'\\n' || ${auditEntryBody(content)},
          'UTF8'
        )), 'hex')
      FROM head
      RETURNING seq, hash
    )
    UPDATE aopd_audit_head SET seq = entry.seq, hash = entry.hash FROM entry
  `.execute(db);
}

function contentOf(event: AuditEvent, traceId: string | null) {
  return {
    action: event.action,
    proofId: event.proofId,
    actorSubject: event.origin.actor.subject,
    actorClient: event.origin.actor.client,
    actorUsername: event.origin.actor.username,
    actorSystem: event.origin.actor.system,
    requestId: event.origin.requestId,
    traceId,
    details: canonicalJson(event.details),
  };
}

function columnsOf(content: Omit<AuditEntryContent, "previousHash">) {
  return {
    seq: content.seq,
    occurred_at: content.occurredAt,
    action: content.action,
    proof_id: content.proofId,
    actor_subject: content.actorSubject,
    actor_client: content.actorClient,
    actor_username: content.actorUsername,
    actor_system: content.actorSystem,
    request_id: content.requestId,
    trace_id: content.traceId,
    details: content.details,
  };
}

/** Appends one entry (see `appendAuditEntries`). */
export function appendAuditEntry(db: Kysely<AopdDatabase>, event: AuditEvent): Promise<void> {
  return appendAuditEntries(db, [event]);
}

/** The trace of the span active now, so an entry joins the request's logs and traces; null when untraced. */
function activeTraceId(): string | null {
  const context = trace.getActiveSpan()?.spanContext();
  return context && isSpanContextValid(context) ? context.traceId : null;
}

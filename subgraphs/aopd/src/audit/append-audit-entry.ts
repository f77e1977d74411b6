import { isSpanContextValid, trace } from "@opentelemetry/api";
import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import type { AuditAction } from "./audit-action.js";
import { authenticateAuditEntry } from "./audit-entry-authentication.js";
import { canonicalJson, type AuditDetail } from "./audit-entry-hash.js";
import { auditKeyring } from "./audit-keyring.js";
import type { AuditOrigin } from "./audit-origin.js";

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
 * accepted change and its entries commit together or not at all.
 *
 * Threat: an entry changed, removed or moved after the fact, by anyone with the database's
 * credentials, to hide who did what. The table refuses DELETE and every UPDATE but the one that
 * chains an entry (migrations 0012, 0018); the chain makes what the trigger cannot stop (a
 * superuser disabling it) visible: each entry's hash covers its content and the previous entry's
 * hash, `npm run verify-audit` recomputes them.
 *
 * The entries are inserted unchained (no `seq`, no hash): taking the chain's head here would hold
 * its lock through the caller's commit and make every recording transaction wait for the one
 * before it. The sequencer (`chainAuditEntries`) gives them their places right after they commit.
 * Each entry is authenticated here, under `AOPD_AUDIT_KEY` (audit-entry-authentication.ts): the
 * sequencer chains only entries that authenticate, so an INSERT by anyone but aopd is set aside.
 * The authentication covers the time, so the time is this process's clock (at millisecond
 * precision, as stored) rather than the database's `now()`, which aopd cannot know before the
 * insert. One statement for any number of entries; its trigger wakes the sequencer.
 */
export async function appendAuditEntries(db: Kysely<AopdDatabase>, events: readonly AuditEvent[]): Promise<void> {
  if (events.length === 0) return;
  const traceId = activeTraceId();
  const occurredAt = new Date();
  const keyring = auditKeyring();
  await db
    .insertInto("aopd_audit_entry")
    .values(
      events.map((event) => {
        const content = auditEntryContentOf(event, traceId, occurredAt);
        return { ...auditEntryColumnsOf(content), ...authenticateAuditEntry(keyring, content) };
      }),
    )
    .execute();
}

/** What an entry for `event` authenticates and hashes (its place in the chain aside). */
export function auditEntryContentOf(event: AuditEvent, traceId: string | null, occurredAt: Date) {
  return {
    occurredAt,
    action: event.action,
    // As PostgreSQL reads a uuid back, so that the authenticated text is the stored one.
    proofId: event.proofId?.toLowerCase() ?? null,
    actorSubject: event.origin.actor.subject,
    actorClient: event.origin.actor.client,
    actorUsername: event.origin.actor.username,
    actorSystem: event.origin.actor.system,
    requestId: event.origin.requestId,
    traceId,
    details: canonicalJson(event.details),
  };
}

/** The entry's columns holding that content. */
export function auditEntryColumnsOf(content: ReturnType<typeof auditEntryContentOf>) {
  return {
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

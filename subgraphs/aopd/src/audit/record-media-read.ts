import { sql, type Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { appendAuditEntry } from "./append-audit-entry.js";
import type { AuditOrigin } from "./audit-origin.js";
import { canonicalJson } from "./audit-entry-hash.js";

/**
 * Why a media file is read: `download` to keep it or pass it on, `view` for an officer's screen to
 * show it. The trail tells the two apart, because an auditor asks different questions of them (a
 * download may have left the building; a view has not).
 */
export type MediaReadPurpose = "download" | "view";

export const mediaReadPurposes: readonly MediaReadPurpose[] = ["download", "view"];

/**
 * Records one read of a media proof's file on the audit trail, before its first byte leaves. A
 * download is always an entry (`MEDIA_DOWNLOADED`). A view (`MEDIA_VIEWED`) is one entry per officer
 * and file within `viewWindowSeconds`: the detail page shows the file each time it is drawn again (a
 * reload, a live update, coming back from the queue), and eight "file shown" entries in two minutes
 * for one officer on one proof tell an auditor less than one. The identity carries no session id
 * (the internal token has none), so the window stands in for the session; "the same file" is its
 * SHA-256, so a file replaced by a correction is a new view. Two views at once take turns on a
 * transaction-scoped advisory lock, so they cannot both find no entry and both write one.
 */
export async function recordMediaRead(
  db: Kysely<AopdDatabase>,
  read: { purpose: MediaReadPurpose; proofId: string; origin: AuditOrigin; sha256: string; byteSize: number; viewWindowSeconds: number },
): Promise<void> {
  const details = { evidenceHash: `sha256:${read.sha256}`, byteSize: read.byteSize };
  if (read.purpose === "download") {
    await appendAuditEntry(db, { origin: read.origin, action: "MEDIA_DOWNLOADED", proofId: read.proofId, details });
    return;
  }
  await db.transaction().execute(async (trx) => {
    if (read.viewWindowSeconds > 0) {
      const subject = read.origin.actor.subject;
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`aopd_media_view:${subject}:${read.proofId}`}))`.execute(trx);
      const seen = await trx
        .selectFrom("aopd_audit_entry")
        .select("action")
        .where("proof_id", "=", read.proofId)
        .where("action", "=", "MEDIA_VIEWED")
        .where("actor_subject", "=", subject)
        .where("details", "=", canonicalJson(details))
        .where("occurred_at", ">", sql<Date>`now() - make_interval(secs => ${read.viewWindowSeconds})`)
        .limit(1)
        .executeTakeFirst();
      if (seen) return;
    }
    await appendAuditEntry(trx, { origin: read.origin, action: "MEDIA_VIEWED", proofId: read.proofId, details });
  });
}

import { ConflictError, NotFoundError } from "@compliance-graph/errors";
import { isUuid } from "@compliance-graph/filter";
import { sql, type Kysely } from "kysely";
import type { AopdConfig } from "../aopd-config.js";
import { appendAuditEntry } from "../audit/append-audit-entry.js";
import type { AuditOrigin } from "../audit/audit-origin.js";
import type { AopdDatabase, ProofRow } from "../database/database-schema.js";
import { newCallbackToken } from "../ingestion/callback-token.js";
import { credentialUrls } from "../ingestion/credential-urls.js";
import { ProofStateRefusal } from "../proofs/proof-refusal.js";
import { aoppUriOf } from "./signature/aopp-uri.js";

/**
 * Most new portal links one proof may be given, on top of its first.
 * @default 5
 */
export const maxPortalLinksPerProof = 5;

export interface IssuedPortalLink {
  row: ProofRow;
  /** The customer's portal page with the new credential. */
  portalUrl: string;
  /** A signature proof's `aopp:` URI with the new callback (the portal URL where AOPP cannot name the asset); null for the other kinds. */
  aoppUri: string | null;
}

/**
 * A new link for a proof still waiting for its customer, for the officer who lost the first one
 * (only the credential's hash is stored, so the first link cannot be shown again).
 *
 * Threat: a link that went astray (a mistyped e-mail, a shared screen, a chat the customer left) is
 * a bearer credential: whoever holds it can submit evidence for the proof. So the new credential
 * replaces the old one (the proof keeps one hash), and every link handed out before stops working
 * at once: an officer who asks for a new link expects it to be the one that counts, as with a reset
 * password, and a customer with the old link meets the portal's "link no longer valid" page, which
 * says whom to ask. Bounded: only a PENDING proof before its due time (the due time is not moved:
 * a proof that ran out is requested again), and at most `maxPortalLinksPerProof` new links per
 * proof, counted on the audit trail where each one is recorded (`PORTAL_LINK_ISSUED`).
 *
 * The row is locked while the link is issued, so two officers asking at once get one new link
 * each, in turn, and the count holds. Only the credential changes: not the status nor `updated_at`
 * (the proof's evidence and decisions are as they were), so no proof event is sent.
 */
export async function issuePortalLink(db: Kysely<AopdDatabase>, config: AopdConfig, id: string, origin: AuditOrigin): Promise<IssuedPortalLink> {
  if (!isUuid(id)) throw new NotFoundError("The proof", id);
  const { token, hash } = newCallbackToken();
  const row = await db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom("aopd_proof")
      .select(["id", "status", sql<boolean>`due_at IS NOT NULL AND due_at <= now()`.as("overdue")])
      .where("id", "=", id.toLowerCase())
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw new NotFoundError("The proof", id);
    if (current.status !== "PENDING") {
      throw new ProofStateRefusal(
        "wrong_status",
        `The proof is ${current.status}: only a proof still waiting for its customer (PENDING) gets a new link.`,
        current.status,
      );
    }
    if (current.overdue) throw new ProofStateRefusal("expired", "The proof's due time has passed: request a new proof instead.", current.status);
    const { issued } = await trx
      .selectFrom("aopd_audit_entry")
      .select((eb) => eb.fn.countAll<string>().as("issued"))
      .where("proof_id", "=", current.id)
      .where("action", "=", "PORTAL_LINK_ISSUED")
      .executeTakeFirstOrThrow();
    if (Number(issued) >= maxPortalLinksPerProof) {
      throw new ConflictError(`The proof has had ${maxPortalLinksPerProof} new links already, the most one proof gets: request a new proof instead.`, {
        status: current.status,
      });
    }
    const updated = await trx
      .updateTable("aopd_proof")
      .set({ callback_token_hash: hash })
      .where("id", "=", current.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await appendAuditEntry(trx, { origin, action: "PORTAL_LINK_ISSUED", proofId: updated.id, details: { kind: updated.kind, linkNumber: Number(issued) + 2 } });
    return updated;
  });
  const { portalUrl } = credentialUrls(config, token);
  return { row, portalUrl, aoppUri: row.kind === "signature" ? (aoppUriOf(config, row, token) ?? portalUrl) : null };
}

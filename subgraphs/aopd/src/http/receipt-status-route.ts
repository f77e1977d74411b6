import type { RouteDefinition } from "@compliance-graph/process-shell";
import { isUuid } from "@compliance-graph/filter";
import type { Kysely } from "kysely";
import type { AopdDatabase, ReceiptRevocationReason } from "../database/database-schema.js";
import { receiptStatusPathPrefix } from "../receipts/receipt-signer.js";
import { PublicRouteError } from "./public-route-error.js";
import type { PublicRouteLimits } from "./public-route-limits.js";

/** What each revocation reason means, for whoever reads a status without our docs. */
const reasonText: Record<ReceiptRevocationReason, string> = {
  reopened: "The proof is no longer VERIFIED: its decision was set aside (reopened) or its status changed.",
  decided_again: "The proof's decision in force changed after the receipt was issued.",
  screening_listed: "The address became LISTED by sanctions screening after the receipt was issued.",
};

/**
 * `GET /.well-known/aopd-receipt-status/<jti>`: whether a receipt still stands, for anyone holding
 * it, without a token (as the keys are: a verifier that needed our token to check our word would
 * defeat the purpose; the gateway serves it too, subgraph-routes.yaml). It answers only for a
 * receipt id, an unguessable UUID its holder has: `valid`, `revoked` (with when and why) or
 * `expired`; an unknown id is 404. Not cached: a revocation must be seen at once. Each look-up
 * counts as a read against its client address (`PublicRouteLimits`), as the portal's do.
 */
export function receiptStatusRoute(db: Kysely<AopdDatabase>, limits: PublicRouteLimits): RouteDefinition<never> {
  const handle: RouteDefinition<never>["handle"] = async ({ request, response, rest }) => {
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", "x-content-type-options": "nosniff", ...headers });
      response.end(request.method === "HEAD" ? undefined : JSON.stringify(body));
    };
    if (request.method !== "GET" && request.method !== "HEAD") {
      return answer(405, { error: "method_not_allowed", reason: `${request.method ?? "This method"} is not allowed here; use GET.` }, { allow: "GET, HEAD" });
    }
    try {
      limits.check(request, undefined, "read");
    } catch (error) {
      if (!(error instanceof PublicRouteError)) throw error;
      return answer(429, { error: error.code, reason: error.message }, { "retry-after": String(error.retryAfterSeconds ?? 60) });
    }
    const receiptId = rest.toLowerCase();
    if (!isUuid(receiptId))
      return answer(404, { error: "unknown_receipt", reason: "The path names no receipt: its jti (a UUID) was expected after the prefix." });
    const row = await db.selectFrom("aopd_receipt").selectAll().where("id", "=", receiptId).executeTakeFirst();
    if (!row) return answer(404, { error: "unknown_receipt", reason: "No receipt with this id was issued here." });
    const base = { receiptId: row.id, proofId: row.proof_id, issuedAt: row.issued_at.toISOString(), expiresAt: row.expires_at.toISOString() };
    if (row.revoked_at !== null && row.revoked_reason !== null) {
      return answer(200, {
        ...base,
        status: "revoked",
        revokedAt: row.revoked_at.toISOString(),
        reason: row.revoked_reason,
        reasonText: reasonText[row.revoked_reason],
      });
    }
    answer(200, { ...base, status: row.expires_at.getTime() <= Date.now() ? "expired" : "valid" });
  };
  return { path: `${receiptStatusPathPrefix}*`, access: "public", handle };
}

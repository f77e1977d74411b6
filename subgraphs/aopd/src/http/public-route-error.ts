import type { ServerResponse } from "node:http";
import { publicErrorIn } from "@compliance-graph/errors";
import { portalErrorStatus, type PortalErrorBody, type PortalErrorCode } from "@compliance-graph/portal-contract";
import { sendJson } from "@compliance-graph/process-shell";
import type { ProofStatus } from "../database/database-schema.js";
import { ProofRefusal, type ProofRefusalCode } from "../proofs/proof-refusal.js";

/**
 * The answer of a public route: `{ error, reason }` (+ `status` for `not_pending`) with the HTTP
 * status of its code in `portalErrorStatus` (`@compliance-graph/portal-contract`), the table shared
 * with the portal page that translates the codes. The routes throw it for what only this edge
 * knows (a method, a body, a rate); everything else arrives as a member of the error family and is
 * answered through `publicRouteErrorOf`, this edge's one table.
 */
export class PublicRouteError extends Error {
  readonly httpStatus: number;

  constructor(
    readonly code: PortalErrorCode,
    reason: string,
    /** The proof's status, for `not_pending`. */
    readonly proofStatus?: ProofStatus,
    /** Seconds until a retry can succeed (`Retry-After`), for `rate_limited` and the upload bounds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(reason);
    this.httpStatus = portalErrorStatus[code];
  }
}

/**
 * The routes' code of each proof refusal: its own, but for a status a change does not allow, which
 * every change these routes make (from PENDING) calls `not_pending`.
 */
const portalCodeOf: Record<ProofRefusalCode, PortalErrorCode> = {
  invalid_address: "invalid_address",
  format_mismatch: "format_mismatch",
  address_mismatch: "address_mismatch",
  malformed_signature: "malformed_signature",
  unsupported_signature: "unsupported_signature",
  signature_mismatch: "signature_mismatch",
  wrong_message: "wrong_message",
  xpub_required: "xpub_required",
  invalid_xpub: "invalid_xpub",
  xpub_mismatch: "xpub_mismatch",
  invalid_tx_id: "invalid_tx_id",
  empty_media: "empty_media",
  invalid_image: "invalid_image",
  image_too_large: "image_too_large",
  media_too_large: "media_too_large",
  unsupported_media_type: "unsupported_media_type",
  upload_too_slow: "upload_too_slow",
  wrong_kind: "wrong_kind",
  unknown_proof: "unknown_proof",
  wrong_status: "not_pending",
  not_pending: "not_pending",
  expired: "expired",
  too_many_attempts: "too_many_attempts",
  upload_in_progress: "upload_in_progress",
  too_many_uploads: "too_many_uploads",
  service_unavailable: "service_unavailable",
};

/**
 * This edge's one table: how an error thrown behind a public route is answered. A proof refusal by
 * its code; the family's identity and input refusals by theirs; anything else (a fault, the database
 * unreachable) is no answer of its own, and the caller sends `service_unavailable`.
 */
export function publicRouteErrorOf(error: unknown): PublicRouteError | undefined {
  if (error instanceof PublicRouteError) return error;
  if (error instanceof ProofRefusal) {
    const code = portalCodeOf[error.refusal];
    return new PublicRouteError(code, error.message, code === "not_pending" ? error.proofStatus : undefined, error.retryAfterSeconds);
  }
  const member = publicErrorIn(error);
  switch (member?.code) {
    case "UNAUTHENTICATED":
      return new PublicRouteError("unauthenticated", member.message);
    case "FORBIDDEN":
      return new PublicRouteError("forbidden", member.message);
    case "NOT_FOUND":
      return new PublicRouteError("unknown_proof", member.message);
    case "BAD_USER_INPUT":
      return new PublicRouteError("invalid_body", member.message);
    case "SERVICE_UNAVAILABLE":
      return new PublicRouteError("service_unavailable", member.message);
    default:
      return undefined;
  }
}

export function sendPublicRouteError(response: ServerResponse, error: PublicRouteError): void {
  if (error.retryAfterSeconds !== undefined) response.setHeader("retry-after", String(error.retryAfterSeconds));
  // The rest of a body too slow is not waited for: closing the connection frees it (RFC 9110, 408).
  if (error.code === "upload_too_slow") response.setHeader("connection", "close");
  response.setHeader("cache-control", "no-store");
  const body: PortalErrorBody = {
    error: error.code,
    reason: error.message,
    ...(error.proofStatus !== undefined && error.code === "not_pending" ? { status: error.proofStatus } : {}),
  };
  sendJson(response, error.httpStatus, body);
}

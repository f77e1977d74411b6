import type { ServerResponse } from "node:http";
import { sendJson } from "@compliance-graph/process-shell";
import type { ProofStatus } from "../database/database-schema.js";
import type { ProofRefusal} from "../proofs/proof-refusal.js";
import { BusyRefusal, ProofStateRefusal } from "../proofs/proof-refusal.js";

/**
 * The stable error codes of aopd's plain HTTP routes (the AOPP callback, the portal API and the
 * officers' media route) and the HTTP status of each: the routes' own refusals (a body, a method,
 * a token, a rate) and the proof domain's (`ProofRefusal`, same codes). A page translates by code (`error.<code>` in lang.json) and a wallet acts on the HTTP status; the
 * `reason` beside the code is an English sentence naming what was wrong and what is allowed.
 */
export const publicRouteErrorStatus = {
  invalid_body: 400,
  invalid_address: 400,
  format_mismatch: 400,
  address_mismatch: 400,
  malformed_signature: 400,
  unsupported_signature: 400,
  signature_mismatch: 400,
  wrong_message: 400,
  xpub_required: 400,
  invalid_xpub: 400,
  xpub_mismatch: 400,
  invalid_tx_id: 400,
  empty_media: 400,
  invalid_image: 400,
  image_too_large: 400,
  wrong_kind: 400,
  unauthenticated: 401,
  forbidden: 403,
  unknown_proof: 404,
  method_not_allowed: 405,
  upload_too_slow: 408,
  not_pending: 409,
  expired: 409,
  too_many_attempts: 409,
  upload_in_progress: 409,
  body_too_large: 413,
  media_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  too_many_uploads: 429,
  service_unavailable: 503,
} as const;

export type PublicRouteErrorCode = keyof typeof publicRouteErrorStatus;

/** A refusal of a public route: answered as `{ error, reason }` (+ `status` for `not_pending`). */
export class PublicRouteError extends Error {
  readonly httpStatus: number;

  constructor(
    readonly code: PublicRouteErrorCode,
    reason: string,
    /** The proof's status, for `not_pending`. */
    readonly proofStatus?: ProofStatus,
    /** Seconds until a retry can succeed (`Retry-After`), for `rate_limited` and the upload bounds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(reason);
    this.httpStatus = publicRouteErrorStatus[code];
  }

  /** The proof domain's refusal as the routes answer it: its code and sentence, the status from the table above. */
  static fromRefusal(refusal: ProofRefusal): PublicRouteError {
    return new PublicRouteError(
      refusal.code,
      refusal.message,
      refusal instanceof ProofStateRefusal ? refusal.proofStatus : undefined,
      refusal instanceof BusyRefusal ? refusal.retryAfterSeconds : undefined,
    );
  }
}

export function sendPublicRouteError(response: ServerResponse, error: PublicRouteError): void {
  if (error.retryAfterSeconds !== undefined) response.setHeader("retry-after", String(error.retryAfterSeconds));
  // The rest of a body too slow is not waited for: closing the connection frees it (RFC 9110, 408).
  if (error.code === "upload_too_slow") response.setHeader("connection", "close");
  response.setHeader("cache-control", "no-store");
  sendJson(response, error.httpStatus, {
    error: error.code,
    reason: error.message,
    ...(error.proofStatus !== undefined && error.code === "not_pending" ? { status: error.proofStatus } : {}),
  });
}

import type { PublicProofStatus } from "./public-proof-view.js";

/**
 * The stable error codes of aopd's plain HTTP routes (the AOPP callback, the portal API and the
 * officers' media route) and the HTTP status of each. aopd answers by this table
 * (`http/public-route-error.ts`); the portal translates by code (`error.<code>` in lang.json)
 * and a wallet acts on the HTTP status. One table for both sides, so a new code cannot reach the
 * page without the page's type knowing it.
 */
export const portalErrorStatus = {
  invalid_body: 400,
  invalid_query: 400,
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

export type PortalErrorCode = keyof typeof portalErrorStatus;

/**
 * The body of every refusal: the code, an English sentence naming what was wrong and what is
 * allowed (the page shows its own translation of the code instead, and this sentence only for a
 * code it has no text for), and the proof's status for `not_pending`. The seconds to wait of
 * `rate_limited` and the upload bounds travel in the `Retry-After` header.
 */
export interface PortalErrorBody {
  error: PortalErrorCode;
  reason: string;
  status?: PublicProofStatus;
}

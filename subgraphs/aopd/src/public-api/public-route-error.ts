import type { ServerResponse } from "node:http";
import { portalErrorStatus, type PortalErrorBody, type PortalErrorCode } from "@compliance-graph/portal-contract";
import { sendJson } from "@compliance-graph/process-shell";
import type { ProofStatus } from "../database/database-schema.js";
import type { ProofRefusal} from "../proofs/proof-refusal.js";
import { BusyRefusal, ProofStateRefusal } from "../proofs/proof-refusal.js";

/**
 * A refusal of a public route: answered as `{ error, reason }` (+ `status` for `not_pending`). The
 * codes and the HTTP status of each are `portalErrorStatus` of `@compliance-graph/portal-contract`,
 * shared with the portal page that translates them: the routes' own refusals (a body, a method, a
 * token, a rate) and the proof domain's (`ProofRefusal`, same codes).
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
  const body: PortalErrorBody = {
    error: error.code,
    reason: error.message,
    ...(error.proofStatus !== undefined && error.code === "not_pending" ? { status: error.proofStatus } : {}),
  };
  sendJson(response, error.httpStatus, body);
}

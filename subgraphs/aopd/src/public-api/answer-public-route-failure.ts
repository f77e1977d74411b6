import type { ServerResponse } from "node:http";
import type { Logger } from "@compliance-graph/process-shell";
import { ProofRefusal } from "../proofs/proof-refusal.js";
import { PublicRouteError, sendPublicRouteError } from "./public-route-error.js";

/**
 * The last answer of a public route. A refusal is sent as it is (the route's own `PublicRouteError`,
 * or the proof domain's `ProofRefusal` with the status its code has at this edge); anything else (the database
 * unreachable, a bug) is logged with the request id and answered `service_unavailable`, in the
 * routes' one error shape: a wallet or page never sees a stack, SQL or a host name, and knows to
 * retry later.
 */
export function answerPublicRouteFailure(response: ServerResponse, error: unknown, logger: Logger, requestId: string): void {
  const refusal =
    error instanceof PublicRouteError
      ? error
      : error instanceof ProofRefusal
        ? PublicRouteError.fromRefusal(error)
        : new PublicRouteError("service_unavailable", "The service cannot answer right now; try again in a moment.");
  if (!(error instanceof PublicRouteError || error instanceof ProofRefusal)) logger.error({ err: error, requestId }, "public route failed");
  if (response.headersSent) response.end();
  else sendPublicRouteError(response, refusal);
}

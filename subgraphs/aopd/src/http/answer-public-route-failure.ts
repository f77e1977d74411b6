import type { ServerResponse } from "node:http";
import type { Logger } from "@compliance-graph/process-shell";
import { PublicRouteError, publicRouteErrorOf, sendPublicRouteError } from "./public-route-error.js";

/**
 * The last answer of a public route. A refusal is answered by this edge's table
 * (`publicRouteErrorOf`); anything else (the database unreachable, a bug) is logged with the
 * request id and answered `service_unavailable`, in the routes' one error shape: a wallet or page
 * never sees a stack, SQL or a host name, and knows to retry later.
 */
export function answerPublicRouteFailure(response: ServerResponse, error: unknown, logger: Logger, requestId: string): void {
  const answer = publicRouteErrorOf(error);
  if (!answer) logger.error({ err: error, requestId }, "public route failed");
  if (response.headersSent) response.end();
  else sendPublicRouteError(response, answer ?? new PublicRouteError("service_unavailable", "The service cannot answer right now; try again in a moment."));
}

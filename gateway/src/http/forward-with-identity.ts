import type { IncomingMessage, ServerResponse } from "node:http";
import { ServiceUnavailableError, type PublicError } from "@compliance-graph/errors";
import type { InternalTokenMinter } from "@compliance-graph/identity";
import { forwardRequest, sendJson, type Logger } from "@compliance-graph/server-kit";
import type { AccessTokenVerifier } from "../authentication/access-token-verifier.js";
import { authenticateRequest } from "../authentication/authenticate-request.js";

export interface ForwardWithIdentityOptions {
  /** The paths forwarded, unchanged, to the subgraph (`/aopd/media/`). */
  pathPrefix: string;
  /** The subgraph's name: the internal token's audience. */
  subgraph: string;
  /** The subgraph's URL as the gateway routes to it now (any path; its origin is used). */
  subgraphUrl: () => string | undefined;
  verifier: AccessTokenVerifier;
  mint: InternalTokenMinter;
  logger: Logger;
}

/**
 * A subgraph's plain HTTP route behind the gateway, for what GraphQL's JSON cannot carry (a media
 * proof's file, up or down). The same door as `/graphql`: the caller's bearer token is verified
 * here and never forwarded; the subgraph receives the internal token the gateway mints for it, so
 * it checks roles exactly as for a GraphQL call, and a caller who reaches it directly gets nothing.
 * Bodies stream through in both directions; nothing is buffered here.
 */
export function forwardWithIdentity(options: ForwardWithIdentityOptions) {
  return async (request: IncomingMessage, response: ServerResponse, requestId: string): Promise<boolean> => {
    if (!(request.url ?? "").startsWith(options.pathPrefix)) return false;
    const refuse = (status: number, error: PublicError) => sendJson(response, status, { error: error.code.toLowerCase(), reason: error.message });
    const identity = await authenticateRequest(request, response, { verifier: options.verifier, logger: options.logger, requestId, refuse });
    if (!identity) return true;
    const target = options.subgraphUrl();
    if (target === undefined) return (refuse(503, new ServiceUnavailableError(`${options.subgraph} service`)), true);
    const token = await options.mint(identity, options.subgraph);
    await forwardRequest(request, response, new URL(target), { authorization: `Bearer ${token}`, "x-request-id": requestId });
    return true;
  };
}

import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApolloServer } from "@apollo/server";
import { UnauthenticatedError, ServiceUnavailableError } from "@compliance-graph/errors";
import type { Identity } from "@compliance-graph/identity";
import { executeApolloRequest, readGraphQLBody, sendJson, type Logger } from "@compliance-graph/server-kit";
import { IdentityProviderUnavailableError, type AccessTokenVerifier } from "../authentication/access-token-verifier.js";
import { authenticateRequest } from "../authentication/authenticate-request.js";
import type { GatewayContext } from "../gateway-context.js";

export interface GraphQLHandlerOptions {
  apollo: ApolloServer<GatewayContext>;
  verifier: AccessTokenVerifier;
  maxBodyBytes: number;
  logger: Logger;
}

function sendError(response: ServerResponse, status: number, code: string, message: string): void {
  sendJson(response, status, { errors: [{ message, extensions: { code } }] });
}

/**
 * `/graphql`: authenticate first (nothing of the request is parsed for an unknown caller), then
 * read the body within its limit, then let Apollo Server validate, authorize, plan and execute.
 */
export function createGraphQLHandler(options: GraphQLHandlerOptions) {
  const { apollo, verifier, maxBodyBytes, logger } = options;
  return async (request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> => {
    let identity: Identity;
    try {
      identity = await authenticateRequest(request, verifier);
    } catch (error) {
      if (error instanceof UnauthenticatedError) {
        // RFC 6750 section 3: the scheme the client must use; no detail on why the token failed.
        response.setHeader("www-authenticate", request.headers.authorization ? 'Bearer error="invalid_token"' : "Bearer");
        return sendError(response, 401, "UNAUTHENTICATED", error.message);
      }
      if (error instanceof IdentityProviderUnavailableError) {
        logger.error({ err: error, requestId }, "identity provider unavailable");
        const unavailable = new ServiceUnavailableError("identity provider");
        return sendError(response, 503, unavailable.code, unavailable.message);
      }
      throw error;
    }
    const read = await readGraphQLBody(request, response, maxBodyBytes);
    if (!read) return;
    await executeApolloRequest(apollo, request, response, read.body, async () => ({
      identity,
      requestId,
      logger: logger.child({ requestId, subject: identity.subject, client: identity.client }),
    }));
  };
}

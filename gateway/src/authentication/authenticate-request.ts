import type { IncomingMessage, ServerResponse } from "node:http";
import { IdentityProviderUnavailableError, UnauthenticatedError, type PublicError } from "@compliance-graph/errors";
import { bearerTokenFrom, type Identity } from "@compliance-graph/identity";
import type { Logger } from "@compliance-graph/process-shell";
import type { AccessTokenVerifier } from "./access-token-verifier.js";

export interface AuthenticateRequestOptions {
  verifier: AccessTokenVerifier;
  logger: Logger;
  requestId: string;
  /** Writes a refusal in the route's own body shape (GraphQL `errors`, or a public route's `{ error, reason }`). */
  refuse: (status: number, error: PublicError) => void;
}

/**
 * The caller of one of the gateway's HTTP routes, from its `Authorization: Bearer` header, or
 * `undefined` once the refusal is sent: 401 for a missing or bad token (with the RFC 6750
 * section 3 challenge, and no detail on why the token failed), 503 while the identity provider
 * cannot be reached. Every route that carries a caller's identity passes through here first, so
 * nothing of an unknown caller's request is read.
 */
export async function authenticateRequest(
  request: IncomingMessage,
  response: ServerResponse,
  options: AuthenticateRequestOptions,
): Promise<Identity | undefined> {
  try {
    const token = bearerTokenFrom(request.headers);
    if (token === undefined) throw new UnauthenticatedError();
    return await options.verifier.verify(token);
  } catch (error) {
    if (error instanceof UnauthenticatedError) {
      response.setHeader("www-authenticate", request.headers.authorization ? 'Bearer error="invalid_token"' : "Bearer");
      options.refuse(401, error);
      return undefined;
    }
    if (error instanceof IdentityProviderUnavailableError) {
      options.logger.error({ err: error, requestId: options.requestId }, "identity provider unavailable");
      options.refuse(503, error);
      return undefined;
    }
    throw error;
  }
}

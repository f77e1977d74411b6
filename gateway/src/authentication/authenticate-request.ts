import type { IncomingMessage } from "node:http";
import { UnauthenticatedError } from "@compliance-graph/errors";
import { bearerTokenFrom, type Identity } from "@compliance-graph/identity";
import type { AccessTokenVerifier } from "./access-token-verifier.js";

/** The caller of an HTTP request, from its `Authorization: Bearer` header, or `UnauthenticatedError`. */
export async function authenticateRequest(request: IncomingMessage, verifier: AccessTokenVerifier): Promise<Identity> {
  const token = bearerTokenFrom(request.headers);
  if (token === undefined) throw new UnauthenticatedError();
  return verifier.verify(token);
}

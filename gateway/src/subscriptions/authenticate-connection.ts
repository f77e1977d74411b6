/**
 * Authentication of a subscription socket. Threat: a client that opens a socket without a token, or
 * with a forged, expired or foreign one, to receive events; or one that authenticates once and keeps
 * receiving after its token expired. The `connection_init` payload's `bearer_token` goes through the
 * very verifier (and cache) that checks HTTP bearer tokens, and the connection's life is bounded by
 * the token's `exp`: the caller reconnects with a fresh token instead.
 */
import { decodeJwt } from "jose";
import { UnauthenticatedError } from "@compliance-graph/errors";
import type { Identity } from "@compliance-graph/identity";
import type { AccessTokenVerifier } from "../authentication/access-token-verifier.js";

export interface AuthenticatedConnection {
  identity: Identity;
  /** The token's `exp`, in milliseconds since the epoch. */
  expiresAt: number;
}

/** Larger tokens are refused unverified, as in the `Authorization` header. */
const maxTokenLength = 16_384;

/** Throws `UnauthenticatedError` (or `IdentityProviderUnavailableError`) like the HTTP path. */
export async function authenticateConnection(payload: unknown, verifier: AccessTokenVerifier): Promise<AuthenticatedConnection> {
  const token = payload !== null && typeof payload === "object" ? (payload as { bearer_token?: unknown }).bearer_token : undefined;
  if (typeof token !== "string" || token.length === 0 || token.length > maxTokenLength) throw new UnauthenticatedError();
  const identity = await verifier.verify(token);
  // The signature was verified just above; reading `exp` again only learns when to hang up.
  const { exp } = decodeJwt(token);
  if (typeof exp !== "number") throw new UnauthenticatedError();
  return { identity, expiresAt: exp * 1000 };
}

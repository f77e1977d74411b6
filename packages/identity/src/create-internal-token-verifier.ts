/**
 * The subgraph side of identity propagation. Threat: a caller who reaches a subgraph directly,
 * bypassing the gateway, and presents no token, a token it made up, a token signed with some other
 * key, an expired token, or a genuine token minted for another subgraph, to read data without
 * passing the gateway's authentication and authorization. Every one of these is refused with
 * `UnauthenticatedError` (HTTP 401); only the gateway's key, for this subgraph's name, with the
 * internal token type and an unexpired lifetime, is accepted. A token issued in the future (beyond
 * the clock tolerance) or stamped to live longer than `maxLifetimeSeconds` is refused as well: the
 * gateway mints two-minute tokens, so a long-lived one means a leaked key or a forged clock.
 */
import type { IncomingHttpHeaders } from "node:http";
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JWK, type JWTVerifyGetKey } from "jose";
import { UnauthenticatedError } from "@compliance-graph/errors";
import { bearerTokenFrom } from "./bearer-token-from.js";
import { checkTokenTimes } from "./check-token-times.js";
import { ExpiringCache } from "./expiring-cache.js";
import type { Identity } from "./identity.js";
import { defaultInternalTokenIssuer, internalTokenAlgorithm, internalTokenType, type InternalTokenClaims } from "./internal-token.js";

export interface InternalTokenVerifierOptions {
  /** This subgraph's name, as in `supergraph.yaml`; tokens minted for another name are refused. */
  audience: string;
  /** The gateway's public keys (a JWKS `keys` array); keep the old key here while rotating. */
  publicKeys?: JWK[];
  /** Or: a JWKS URL the gateway serves (`/.well-known/internal-jwks.json`). */
  jwksUrl?: string;
  /** @default "compliance-graph-gateway" */
  issuer?: string;
  /** Clock skew tolerated between gateway and subgraph hosts. @default 5 // seconds */
  clockToleranceSeconds?: number;
  /** Most verified tokens remembered until they expire. @default 10_000 */
  maxCachedTokens?: number;
  /** `INTERNAL_JWT_MAX_LIFETIME_SECONDS`: the longest `exp - iat` accepted. @default 3_600 // 1 hour */
  maxLifetimeSeconds?: number;
  /** Clock, for tests. @default Date.now */
  now?: () => number;
}

/** Verifies the internal token a request carries in its `Authorization` header. */
export type InternalTokenVerifier = (headers: IncomingHttpHeaders) => Promise<Identity>;

export function createInternalTokenVerifier(options: InternalTokenVerifierOptions): InternalTokenVerifier {
  let keys: JWTVerifyGetKey;
  if (options.publicKeys && options.publicKeys.length > 0) {
    if (options.publicKeys.some((key) => "d" in key)) throw new Error("INTERNAL_JWT_PUBLIC_JWKS must hold public keys only.");
    keys = createLocalJWKSet({ keys: options.publicKeys });
  } else if (options.jwksUrl) {
    keys = createRemoteJWKSet(new URL(options.jwksUrl));
  } else {
    throw new Error("The internal token verifier needs the gateway's public keys or a JWKS URL.");
  }
  const issuer = options.issuer ?? defaultInternalTokenIssuer;
  const now = options.now ?? Date.now;
  const times = { clockToleranceSeconds: options.clockToleranceSeconds ?? 5, maxLifetimeSeconds: options.maxLifetimeSeconds ?? 3_600 };
  const cache = new ExpiringCache<Identity>(options.maxCachedTokens ?? 10_000, now);

  return async (headers) => {
    const token = bearerTokenFrom(headers);
    if (token === undefined) throw new UnauthenticatedError("A valid internal identity token is required.");
    const cached = cache.get(token);
    if (cached) return cached;
    let claims: Partial<InternalTokenClaims>;
    try {
      const at = now();
      ({ payload: claims } = await jwtVerify<Partial<InternalTokenClaims>>(token, keys, {
        algorithms: [internalTokenAlgorithm],
        typ: internalTokenType,
        issuer,
        audience: options.audience,
        requiredClaims: ["sub", "exp", "iat"],
        clockTolerance: times.clockToleranceSeconds,
        currentDate: new Date(at),
      }));
      checkTokenTimes(claims, times, at);
    } catch {
      // The reason stays in this process: a prober learns nothing from the answer.
      throw new UnauthenticatedError("A valid internal identity token is required.");
    }
    // Signed by the gateway, which kept only the roles its supergraph declares; still read as
    // untrusted input: only role names (strings) count, and this subgraph's `@requiresRole` decides.
    const identity: Identity = {
      subject: claims.sub ?? "",
      client: typeof claims.azp === "string" ? claims.azp : "",
      roles: Array.isArray(claims.roles) ? claims.roles.filter((role): role is string => typeof role === "string") : [],
    };
    if (typeof claims.preferred_username === "string") identity.username = claims.preferred_username;
    cache.set(token, identity, (claims.exp ?? 0) * 1000);
    return identity;
  };
}

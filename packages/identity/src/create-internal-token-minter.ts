import { importJWK, SignJWT, type JWK } from "jose";
import { ExpiringCache } from "./expiring-cache.js";
import type { Identity } from "./identity.js";
import { identityKey } from "./identity-key.js";
import { defaultInternalTokenIssuer, internalTokenAlgorithm, internalTokenType, type InternalTokenClaims } from "./internal-token.js";

export interface InternalTokenMinterOptions {
  /** The gateway's private signing key as a JWK with a `kid` (ES256). */
  privateJwk: JWK;
  /** @default "compliance-graph-gateway" */
  issuer?: string;
  /** Lifetime of a minted token. @default 120 // seconds */
  ttlSeconds?: number;
  /**
   * A cached token is replaced this long before it expires, so that a subgraph never receives
   * one that expires in flight. @default 30 // seconds
   */
  renewBeforeSeconds?: number;
  /** Most cached tokens (identities x subgraphs). @default 10_000 */
  maxCachedTokens?: number;
  /** Clock, for tests. @default Date.now */
  now?: () => number;
}

export type InternalTokenMinter = (identity: Identity, audience: string) => Promise<string>;

/**
 * Signs the internal identity token the gateway adds to each subgraph request. Tokens are cached
 * per identity (`identityKey`: the same roles in another order are the same caller) and audience
 * until shortly before they expire, so the hot path costs a map lookup, not a signature.
 */
export async function createInternalTokenMinter(options: InternalTokenMinterOptions): Promise<InternalTokenMinter> {
  const { kid } = options.privateJwk;
  if (typeof kid !== "string" || kid === "") throw new Error("The internal signing key needs a key id (kid).");
  const key = await importJWK({ ...options.privateJwk, alg: internalTokenAlgorithm }, internalTokenAlgorithm);
  const issuer = options.issuer ?? defaultInternalTokenIssuer;
  const ttlSeconds = options.ttlSeconds ?? 120;
  const renewBeforeSeconds = Math.min(options.renewBeforeSeconds ?? 30, Math.floor(ttlSeconds / 2));
  const now = options.now ?? Date.now;
  // Promises are cached, so concurrent first requests of one identity share one signature.
  const cache = new ExpiringCache<Promise<string>>(options.maxCachedTokens ?? 10_000, now);

  return (identity, audience) => {
    const cacheKey = `${audience}\n${identityKey(identity)}`;
    const cached = cache.get(cacheKey);
    if (cached) return cached;
    const issuedAt = Math.floor(now() / 1000);
    const claims: InternalTokenClaims = { sub: identity.subject, azp: identity.client, roles: identity.roles };
    if (identity.username !== undefined) claims.preferred_username = identity.username;
    const token = new SignJWT(claims)
      .setProtectedHeader({ alg: internalTokenAlgorithm, typ: internalTokenType, kid })
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ttlSeconds)
      .sign(key);
    cache.set(cacheKey, token, (issuedAt + ttlSeconds - renewBeforeSeconds) * 1000);
    token.catch(() => cache.delete(cacheKey));
    return token;
  };
}

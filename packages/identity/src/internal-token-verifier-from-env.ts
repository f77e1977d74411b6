import type { JWK } from "jose";
import { createInternalTokenVerifier, type InternalTokenVerifier } from "./create-internal-token-verifier.js";

/**
 * How a subgraph deployable learns the gateway's public key(s), from its environment:
 *
 * - `INTERNAL_JWT_PUBLIC_JWKS`: a JWKS (`{"keys":[...]}`) or a bare JWK array, inline. Preferred in
 *   production: no start-up dependency on the gateway, and rotation is "add the new key, deploy the
 *   gateway with it, remove the old key".
 * - `INTERNAL_JWKS_URL`: otherwise, the gateway's `/.well-known/internal-jwks.json`, fetched and
 *   cached (refetched on an unknown key id).
 * - `INTERNAL_JWT_ISSUER`: the issuer the gateway signs with. @default "compliance-graph-gateway"
 * - `INTERNAL_JWT_MAX_LIFETIME_SECONDS`: the longest internal token accepted; keep it at least the
 *   gateway's `INTERNAL_JWT_TTL_SECONDS`. @default 3_600 // 1 hour
 *
 * Returns undefined when neither key source is set; `createIdentityDoor` then refuses to start
 * unless `INSECURE_DEVELOPMENT_IDENTITY=true` (never in production).
 */
export function internalTokenVerifierFromEnv(audience: string, env: NodeJS.ProcessEnv = process.env): InternalTokenVerifier | undefined {
  const inline = env.INTERNAL_JWT_PUBLIC_JWKS;
  const issuer = env.INTERNAL_JWT_ISSUER;
  const maxLifetime = env.INTERNAL_JWT_MAX_LIFETIME_SECONDS;
  if (maxLifetime !== undefined && maxLifetime !== "" && !/^\d+$/.test(maxLifetime)) {
    throw new Error(`INTERNAL_JWT_MAX_LIFETIME_SECONDS must be a non-negative integer; got ${JSON.stringify(maxLifetime)}.`);
  }
  const common = { audience, ...(issuer ? { issuer } : {}), ...(maxLifetime ? { maxLifetimeSeconds: Number(maxLifetime) } : {}) };
  if (inline) {
    const parsed = JSON.parse(inline) as { keys?: JWK[] } | JWK[];
    const publicKeys = Array.isArray(parsed) ? parsed : (parsed.keys ?? []);
    return createInternalTokenVerifier({ ...common, publicKeys });
  }
  if (env.INTERNAL_JWKS_URL) {
    return createInternalTokenVerifier({ ...common, jwksUrl: env.INTERNAL_JWKS_URL });
  }
  return undefined;
}

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
 *
 * Returns undefined when neither key source is set; `startSubgraphServer` refuses to start in
 * production without a verifier.
 */
export function internalTokenVerifierFromEnv(audience: string, env: NodeJS.ProcessEnv = process.env): InternalTokenVerifier | undefined {
  const inline = env.INTERNAL_JWT_PUBLIC_JWKS;
  const issuer = env.INTERNAL_JWT_ISSUER;
  if (inline) {
    const parsed = JSON.parse(inline) as { keys?: JWK[] } | JWK[];
    const publicKeys = Array.isArray(parsed) ? parsed : (parsed.keys ?? []);
    return createInternalTokenVerifier({ audience, publicKeys, ...(issuer ? { issuer } : {}) });
  }
  if (env.INTERNAL_JWKS_URL) {
    return createInternalTokenVerifier({ audience, jwksUrl: env.INTERNAL_JWKS_URL, ...(issuer ? { issuer } : {}) });
  }
  return undefined;
}

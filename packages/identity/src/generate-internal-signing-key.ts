import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { internalTokenAlgorithm } from "./internal-token.js";

export interface InternalSigningKey {
  /** Private JWK with `kid` and `alg`; for the gateway's `INTERNAL_JWT_PRIVATE_JWK`. */
  privateJwk: JWK;
  /** The matching public JWK, for the subgraphs' `INTERNAL_JWT_PUBLIC_JWKS`. */
  publicJwk: JWK;
}

/** Prefix of the key ids of generated development keys; production refuses such keys. */
export const developmentKeyIdPrefix = "dev-";

/**
 * Creates a fresh signing key pair. Development runs and tests use this; production loads a key
 * from the secret store so that every gateway replica signs with the same key.
 */
export async function generateInternalSigningKey(kid = `${developmentKeyIdPrefix}${randomUUID()}`): Promise<InternalSigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(internalTokenAlgorithm, { extractable: true });
  const common = { kid, alg: internalTokenAlgorithm, use: "sig" };
  return {
    privateJwk: { ...(await exportJWK(privateKey)), ...common },
    publicJwk: { ...(await exportJWK(publicKey)), ...common },
  };
}

/** The public half of a private JWK (EC or OKP): everything but the private parameter `d`. */
export function publicJwkOf(privateJwk: JWK): JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, oth: _oth, ...publicJwk } = privateJwk;
  return publicJwk;
}

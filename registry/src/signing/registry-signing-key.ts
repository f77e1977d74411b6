import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, importJWK, importPKCS8, type CryptoKey, type JWK } from "jose";

/** ES256, as the gateway's internal tokens: small signatures and an asymmetric pair. */
export const registrySignatureAlgorithm = "ES256";

export interface RegistrySigningKey {
  kid: string;
  privateKey: CryptoKey;
  /** The public half, published at `/.well-known/registry-keys.json`. */
  publicJwk: JWK;
  /** Generated at start (development only): signatures made with it die with the process. */
  generated: boolean;
}

/** Prefix of generated development keys; production refuses them. */
export const developmentRegistryKeyPrefix = "dev-registry-";

/**
 * The key that signs every published supergraph, from `REGISTRY_SIGNING_KEY`: a private EC P-256
 * JWK (JSON, with a `kid`) or a PKCS#8 PEM (its `kid` from `REGISTRY_SIGNING_KEY_ID`, else derived
 * from the key itself). Without one, production refuses to start (a generated key would sign with
 * a key no gateway was told to trust); development generates one and says so.
 */
export async function registrySigningKeyFrom(
  text: string | undefined,
  options: { production: boolean; keyId?: string | undefined; warn: (message: string) => void },
): Promise<RegistrySigningKey> {
  if (!text || text.trim() === "") {
    if (options.production)
      throw new Error(
        "The registry refuses to start in production without REGISTRY_SIGNING_KEY (a private EC P-256 JWK or PKCS#8 PEM): gateways verify every supergraph with its public half.",
      );
    const { privateKey, publicKey } = await generateKeyPair(registrySignatureAlgorithm, { extractable: true });
    const kid = `${developmentRegistryKeyPrefix}${randomUUID()}`;
    options.warn(
      `REGISTRY_SIGNING_KEY is not set: generated the development signing key ${kid}; set REGISTRY_SIGNING_KEY to keep signatures valid across restarts.`,
    );
    return { kid, privateKey, publicJwk: publicJwk(await exportJWK(publicKey), kid), generated: true };
  }
  const trimmed = text.trim();
  let privateKey: CryptoKey;
  let kid = options.keyId;
  if (trimmed.startsWith("-----BEGIN")) {
    try {
      privateKey = await importPKCS8(trimmed, registrySignatureAlgorithm, { extractable: true });
    } catch {
      throw new Error("REGISTRY_SIGNING_KEY is a PEM but not a PKCS#8 EC P-256 private key.");
    }
  } else {
    let jwk: JWK;
    try {
      jwk = JSON.parse(trimmed) as JWK;
    } catch {
      // Not JSON.parse's message, which would quote the key.
      throw new Error("REGISTRY_SIGNING_KEY must be a private EC P-256 JWK (JSON) or a PKCS#8 PEM.");
    }
    if (jwk.kty !== "EC" || jwk.crv !== "P-256" || !jwk.d) throw new Error("REGISTRY_SIGNING_KEY must be a private EC P-256 JWK (kty EC, crv P-256, with d).");
    kid ??= jwk.kid;
    privateKey = (await importJWK({ ...jwk, alg: registrySignatureAlgorithm }, registrySignatureAlgorithm, { extractable: true })) as CryptoKey;
  }
  const exported = await exportJWK(privateKey);
  const { d: _d, ...publicPart } = exported;
  kid ??= `registry-${(publicPart.x ?? "").slice(0, 16)}`;
  if (options.production && kid.startsWith(developmentRegistryKeyPrefix))
    throw new Error(`The registry refuses the development key ${kid} in production; set REGISTRY_SIGNING_KEY to a key of your own.`);
  return { kid, privateKey, publicJwk: publicJwk(publicPart, kid), generated: false };
}

function publicJwk(jwk: JWK, kid: string): JWK {
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, kid, alg: registrySignatureAlgorithm, use: "sig" } as JWK;
}

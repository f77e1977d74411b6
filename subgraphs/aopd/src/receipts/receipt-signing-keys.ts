import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, importPKCS8, type CryptoKey, type JWK } from "jose";
import type { ReceiptConfig } from "./receipt-config.js";

/** The only algorithm receipts are signed with (ECDSA on P-256 with SHA-256, RFC 7518 3.4). */
export const receiptAlgorithm = "ES256";

/** The prefix of a generated key's `kid`: a receipt naming it was signed by a development process. */
export const developmentReceiptKeyPrefix = "dev-receipt-";

export interface ReceiptSigningKeys {
  /** The key new receipts are signed with. */
  current: { kid: string; privateKey: CryptoKey };
  /** Every public key a receipt of this deployment may name: the current one first, then the previous ones. */
  jwks: { keys: JWK[] };
  /** The key was generated at start (development): receipts signed with it verify only while this process runs. */
  generated: boolean;
}

/**
 * The receipt keys from the configuration.
 *
 * Threat: a receipt is this deployment's word that a customer controls an address; whoever holds
 * the private key can forge that word, and a verifier who accepts any key accepts forgeries. So
 * the key comes from configuration (a secret), never from the database or a request; it must be
 * EC P-256 for ES256 and nothing else; only public parts are ever published (a previous key given
 * with its private part is refused rather than stripped, since it means a secret was put where
 * public keys belong); and production refuses to start without a configured key, because a key
 * generated at start differs per replica and per restart, so receipts would stop verifying.
 */
export async function loadReceiptSigningKeys(config: ReceiptConfig, production: boolean): Promise<ReceiptSigningKeys> {
  let current: ReceiptSigningKeys["current"];
  let currentPublic: JWK;
  let generated = false;
  if (config.signingKey === undefined) {
    if (production) {
      throw new Error(
        "aopd refuses to start in production without AOPD_RECEIPT_SIGNING_KEY: receipts signed with a key generated at start would not verify after a restart or on another replica. " +
          "Set it to an EC P-256 private key (PKCS#8 PEM or a private JWK); see docs/receipts.md.",
      );
    }
    const pair = await generateKeyPair(receiptAlgorithm, { extractable: true });
    currentPublic = await exportJWK(pair.publicKey);
    current = { kid: `${developmentReceiptKeyPrefix}${(await calculateJwkThumbprint(currentPublic)).slice(0, 16)}`, privateKey: pair.privateKey };
    generated = true;
  } else {
    const { privateKey, publicJwk, kid } = await importSigningKey(config.signingKey);
    if (production && kid.startsWith(developmentReceiptKeyPrefix))
      throw new Error(`AOPD_RECEIPT_SIGNING_KEY: a kid starting with ${developmentReceiptKeyPrefix} marks a development key, which production refuses.`);
    current = { kid, privateKey };
    currentPublic = publicJwk;
  }
  const previous = config.previousKeys === undefined ? [] : await previousPublicKeys(config.previousKeys);
  const keys = [publicEntry(currentPublic, current.kid), ...previous.filter((key) => key.kid !== current.kid)];
  return { current, jwks: { keys }, generated };
}

async function importSigningKey(text: string): Promise<{ privateKey: CryptoKey; publicJwk: JWK; kid: string }> {
  const where = "AOPD_RECEIPT_SIGNING_KEY";
  let privateKey: CryptoKey;
  let kid: string | undefined;
  try {
    if (text.trim().startsWith("-----BEGIN PRIVATE KEY-----")) {
      privateKey = await importPKCS8(text.trim(), receiptAlgorithm, { extractable: true });
    } else {
      const jwk = JSON.parse(text) as JWK;
      if (jwk.kty !== "EC" || jwk.crv !== "P-256" || typeof jwk.d !== "string") throw new Error("not an EC P-256 private JWK");
      kid = typeof jwk.kid === "string" && jwk.kid !== "" ? jwk.kid : undefined;
      privateKey = (await importJWK(jwk, receiptAlgorithm, { extractable: true })) as CryptoKey;
    }
  } catch {
    // The key's own text never goes into an error: it is a secret.
    throw new Error(
      `${where} must be an EC P-256 private key for ES256: PKCS#8 PEM (-----BEGIN PRIVATE KEY-----) or a private JWK (kty EC, crv P-256, with d).`,
    );
  }
  const { d: _secret, ...publicJwk } = await exportJWK(privateKey);
  void _secret;
  return { privateKey, publicJwk, kid: kid ?? (await calculateJwkThumbprint(publicJwk)) };
}

async function previousPublicKeys(text: string): Promise<JWK[]> {
  const where = "AOPD_RECEIPT_PREVIOUS_KEYS";
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${where} must be JSON: a JWKS ({"keys":[...]}) or an array of public JWKs.`);
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list)) throw new Error(`${where} must be a JWKS ({"keys":[...]}) or an array of public JWKs.`);
  return Promise.all(
    list.map(async (entry: unknown, index) => {
      const jwk = entry as JWK;
      const at = `${where}[${index}]`;
      if (typeof jwk !== "object" || jwk === null || jwk.kty !== "EC" || jwk.crv !== "P-256" || typeof jwk.x !== "string" || typeof jwk.y !== "string") {
        throw new Error(`${at} must be an EC P-256 public JWK (kty EC, crv P-256, x, y).`);
      }
      if ("d" in jwk) throw new Error(`${at} carries a private key (d); publish only the public key: remove d, and keep the private key out of this variable.`);
      if (typeof jwk.kid !== "string" || jwk.kid === "") throw new Error(`${at} needs its kid: the kid the receipts it signed name.`);
      try {
        await importJWK(jwk, receiptAlgorithm);
      } catch {
        throw new Error(`${at} is not a valid EC P-256 public key.`);
      }
      return publicEntry(jwk, jwk.kid);
    }),
  );
}

/** A JWKS entry: the public coordinates, the kid, and what the key is for. */
function publicEntry(jwk: JWK, kid: string): JWK {
  return { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y, kid, alg: receiptAlgorithm, use: "sig" };
}

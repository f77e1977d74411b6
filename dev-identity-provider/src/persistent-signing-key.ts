import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { JWK } from "jose";
import { generateDevSigningKey } from "./create-dev-identity-provider.js";

/**
 * The development provider's signing key, kept in a file so that a restart of the provider does
 * not invalidate the tokens it issued (clients keep their token, the gateway its cached keys). The
 * file is made (mode 0600) on first use.
 */
export async function persistentSigningKey(file: string): Promise<JWK> {
  try {
    return parseSigningKey(readFileSync(file, "utf8"), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const key = await generateDevSigningKey();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(key), { mode: 0o600, flag: "wx" });
  return key;
}

/** The provider's signing key from its JSON text (`source` names where it came from, for the error). */
export function parseSigningKey(text: string, source: string): JWK {
  let key: JWK;
  try {
    key = JSON.parse(text) as JWK;
  } catch {
    // Not JSON.parse's message, which quotes the text: a key.
    throw new Error(`${source} is not JSON: it must hold a private RSA JWK with a kid.`);
  }
  if (key.kty !== "RSA" || !key.d || typeof key.kid !== "string") throw new Error(`${source} holds no RSA private JWK with a kid.`);
  return key;
}

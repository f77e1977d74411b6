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
    const key = JSON.parse(readFileSync(file, "utf8")) as JWK;
    if (key.kty !== "RSA" || !key.d || typeof key.kid !== "string") throw new Error(`${file} holds no RSA private JWK with a kid.`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const key = await generateDevSigningKey();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(key), { mode: 0o600, flag: "wx" });
  return key;
}

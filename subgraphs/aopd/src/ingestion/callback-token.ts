import { createHash, randomBytes } from "node:crypto";

/**
 * The AOPP callback URL is public: its token is the only credential of the wallet that posts the
 * signature. 256 random bits make it unguessable; only its SHA-256 is stored, so a copy of the
 * database does not hand out working callback URLs.
 */
export function newCallbackToken(): { token: string; hash: Buffer } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashCallbackToken(token) };
}

export function hashCallbackToken(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

/** Whether text has the shape of a token we issue (43 base64url characters). */
export function isCallbackTokenShaped(text: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(text);
}

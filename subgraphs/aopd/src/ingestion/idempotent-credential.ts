import { createHmac } from "node:crypto";
import { hashCallbackToken } from "./callback-token.js";

/**
 * The one-time credential of a proof requested with an idempotency key.
 *
 * Threat: a repeat of the request must return the same `portalUrl` and AOPP URI as the first
 * answer, yet a stored credential (or anything a credential can be computed from) would let whoever
 * reads the database (a read-only role, a leaked backup, an operator's query) open every pending
 * proof's link and submit in the customer's place. So the credential is derived, not stored:
 * HMAC-SHA256 keyed with the caller's idempotency key over a random 256-bit salt kept with the
 * key's record. The record holds the salt and the key's SHA-256, the proof the credential's
 * SHA-256: neither the key nor the credential. Someone without the database cannot compute the
 * credential (the salt is random); someone with it must know the key, which only the client holds.
 * A guessable key would undo the second half, which is why keys must be 16 to 255 characters and
 * the documentation asks for a random one (a UUID).
 *
 * The result has the shape of every credential (43 base64url characters, 256 bits), so the
 * callback and the portal treat it as any other.
 */
export function idempotentCredential(idempotencyKey: string, salt: Uint8Array): { token: string; hash: Buffer } {
  const token = createHmac("sha256", idempotencyKey).update("aopd idempotent credential\0").update(salt).digest("base64url");
  return { token, hash: hashCallbackToken(token) };
}

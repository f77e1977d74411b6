import { ed25519 } from "@noble/curves/ed25519.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { base58, base64 } from "@scure/base";
import { ownershipFailure, signatureMismatch, type OwnershipFailure } from "./ownership-failure.js";
import { parseSolanaAddress } from "./parse-solana-address.js";

/**
 * Solana wallets' `signMessage` (Phantom, Solflare, the wallet standard): ed25519 over the raw
 * UTF-8 bytes of the message, no prefix, the key being the address itself. Verification is
 * RFC 8032's strict form (canonical encodings only, not ZIP-215's lenient one), and a small-order
 * key is refused: for such a key a signature can be found without any secret, which would
 * "prove" control of an address nobody holds.
 */

export function verifySolanaMessage(input: { address: string; message: string; signature: string }): { ok: true } | OwnershipFailure {
  const address = parseSolanaAddress(input.address);
  if (!address.ok) return address;
  const signature = decodeSolanaSignature(input.signature);
  if (!(signature instanceof Uint8Array)) return signature;
  let valid: boolean;
  try {
    if (ed25519.Point.fromBytes(address.publicKey).isSmallOrder()) return signatureMismatch();
    valid = ed25519.verify(signature, utf8ToBytes(input.message), address.publicKey, { zip215: false });
  } catch {
    valid = false;
  }
  return valid ? { ok: true } : signatureMismatch();
}

/**
 * Wallets return the 64 signature bytes; apps show them as base58 (Solana's own text form) or
 * base64. The alphabets overlap, but base64 of 64 bytes ends in "==", which base58 never holds.
 */
function decodeSolanaSignature(text: string): Uint8Array | OwnershipFailure {
  const trimmed = typeof text === "string" ? text.trim() : "";
  let bytes: Uint8Array | undefined;
  try {
    if (/^[A-Za-z0-9+/]{86}==$/.test(trimmed)) bytes = base64.decode(trimmed);
    else if (/^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(trimmed)) bytes = base58.decode(trimmed);
  } catch {
    bytes = undefined;
  }
  if (bytes?.length !== 64) {
    return ownershipFailure("MALFORMED_SIGNATURE", "A Solana signature is 64 bytes, written as base58 or base64.");
  }
  return bytes;
}

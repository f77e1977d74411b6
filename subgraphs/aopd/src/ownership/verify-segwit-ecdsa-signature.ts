import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ownershipFailure, type OwnershipFailure } from "./ownership-failure.js";
import { parseStrictDerSignature } from "./parse-strict-der-signature.js";

/**
 * One ECDSA signature of a segwit v0 witness, as BIP-322 requires it: SIGHASH_ALL, strict DER,
 * low S. `valid` is false for a well-formed signature that does not verify; a malformed one is a
 * failure naming what is wrong.
 */
export function verifySegwitEcdsaSignature(
  signatureWithType: Uint8Array,
  publicKey: Uint8Array,
  sighash: Uint8Array,
): { ok: true; valid: boolean } | OwnershipFailure {
  if (signatureWithType.at(-1) !== 0x01) return malformed("BIP-322 signatures must use SIGHASH_ALL.");
  const parsed = parseStrictDerSignature(signatureWithType.subarray(0, -1));
  if (parsed === undefined) return malformed("The ECDSA signature is not strictly DER encoded.");
  let compact: Uint8Array;
  try {
    const signature = new secp256k1.Signature(parsed.r, parsed.s);
    if (signature.hasHighS()) return malformed("The ECDSA signature has a high S value, which BIP-322 forbids.");
    compact = signature.toBytes("compact");
  } catch {
    return malformed("The ECDSA signature values are out of range.");
  }
  try {
    return { ok: true, valid: secp256k1.verify(compact, sighash, publicKey, { prehash: false, lowS: true, format: "compact" }) };
  } catch {
    return { ok: true, valid: false }; // a key that is not on the curve verifies nothing
  }
}

function malformed(reason: string): OwnershipFailure {
  return ownershipFailure("MALFORMED_SIGNATURE", reason);
}

import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToNumberBE, equalBytes } from "@noble/curves/utils.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { concatBytes, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { base64 } from "@scure/base";
import { ownershipFailure, signatureMismatch, type OwnershipFailure } from "./ownership-failure.js";
import { parseEthereumAddress } from "./parse-ethereum-address.js";

/**
 * EIP-191 `personal_sign` (version 0x45): the wallet signs
 * keccak256("\x19Ethereum Signed Message:\n" || decimal byte length || message). The prefix keeps
 * a signed text from ever being a valid transaction. The signature carries no public key; the key
 * is recovered and its address must equal the claimed one, so a valid signature from any other
 * key, or over any other message, fails.
 */

export function verifyEthereumMessage(input: {
  address: string;
  message: string;
  signature: string;
}): { ok: true } | OwnershipFailure {
  const address = parseEthereumAddress(input.address);
  if (!address.ok) return address;
  const signature = decodeSignature(input.signature);
  if (!(signature instanceof Uint8Array)) return signature;

  const v = signature[64] ?? 0;
  // Wallets write the recovery id as 27/28 (the original convention) or 0/1 (Ledger, some SDKs).
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery !== 0 && recovery !== 1) {
    return ownershipFailure("MALFORMED_SIGNATURE", "The last byte of the signature (v) must be 27, 28, 0 or 1.");
  }

  let publicKey: Uint8Array;
  try {
    const r = bytesToNumberBE(signature.subarray(0, 32));
    const s = bytesToNumberBE(signature.subarray(32, 64));
    publicKey = new secp256k1.Signature(r, s, recovery).recoverPublicKey(ethereumMessageHash(input.message)).toBytes(false);
  } catch {
    return signatureMismatch();
  }
  const recovered = keccak_256(publicKey.subarray(1)).subarray(12);
  return equalBytes(recovered, address.bytes) ? { ok: true } : signatureMismatch();
}

/** keccak256("\x19Ethereum Signed Message:\n" + byte length + message), as `personal_sign` hashes. */
export function ethereumMessageHash(message: string): Uint8Array {
  const body = utf8ToBytes(message);
  return keccak_256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${body.length}`), body));
}

function decodeSignature(text: string): Uint8Array | OwnershipFailure {
  const trimmed = typeof text === "string" ? text.trim() : "";
  let bytes: Uint8Array | undefined;
  if (/^(0x)?[0-9a-fA-F]{130}$/.test(trimmed)) {
    bytes = hexToBytes(trimmed.replace(/^0x/, ""));
  } else if (trimmed.length === 88) {
    try {
      bytes = base64.decode(trimmed);
    } catch {
      bytes = undefined;
    }
  }
  if (bytes?.length !== 65) {
    return ownershipFailure(
      "MALFORMED_SIGNATURE",
      "An Ethereum signature is 65 bytes, written as 0x-prefixed hexadecimal or base64.",
    );
  }
  return bytes;
}

import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToNumberBE } from "@noble/curves/utils.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import { base64 } from "@scure/base";
import { ownershipFailure, type OwnershipFailure } from "./ownership-failure.js";

/**
 * The recoverable secp256k1 signatures of Ethereum's `personal_sign` and TRON's `signMessageV2`:
 * r || s || v, 65 bytes. Neither carries the public key; it is recovered from the signed hash, and
 * its Keccak-256 address (the last 20 bytes of the hash of the uncompressed key) is what the
 * caller compares with the claimed address. So a valid signature from any other key, or over any
 * other message, recovers another address.
 */

/** 65 bytes from 0x-hex, bare hex or base64; `network` names the chain in the refusal. */
export function decodeRecoverableSignature(text: string, network: string): Uint8Array | OwnershipFailure {
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
    return ownershipFailure("MALFORMED_SIGNATURE", `A ${network} signature is 65 bytes, written as 0x-prefixed hexadecimal or base64.`);
  }
  return bytes;
}

/** The uncompressed public key (65 bytes) that made `signature` over `hash`; undefined when no key did. */
export function recoverKeccakSigner(signature: Uint8Array, hash: Uint8Array): Uint8Array | OwnershipFailure | undefined {
  const v = signature[64] ?? 0;
  // Wallets write the recovery id as 27/28 (the original convention) or 0/1 (Ledger, some SDKs).
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery !== 0 && recovery !== 1) {
    return ownershipFailure("MALFORMED_SIGNATURE", "The last byte of the signature (v) must be 27, 28, 0 or 1.");
  }
  try {
    const r = bytesToNumberBE(signature.subarray(0, 32));
    const s = bytesToNumberBE(signature.subarray(32, 64));
    return new secp256k1.Signature(r, s, recovery).recoverPublicKey(hash).toBytes(false);
  } catch {
    return undefined;
  }
}

/** The 20-byte address of an uncompressed secp256k1 key on Ethereum and TRON: the last 20 bytes of Keccak-256 of its coordinates. */
export function keccakAddressOf(uncompressedPublicKey: Uint8Array): Uint8Array {
  return keccak_256(uncompressedPublicKey.subarray(1)).subarray(12);
}

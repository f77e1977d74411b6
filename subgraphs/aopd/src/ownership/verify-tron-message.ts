import { equalBytes } from "@noble/curves/utils.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { signatureMismatch, type OwnershipFailure } from "./ownership-failure.js";
import { parseTronAddress } from "./parse-tron-address.js";
import { decodeRecoverableSignature, keccakAddressOf, recoverKeccakSigner } from "./recover-keccak-address.js";

/**
 * TIP-191, TronLink's `signMessageV2`: keccak256("\x19TRON Signed Message:\n" || decimal byte
 * length || message), signed with the address's secp256k1 key, r || s || v as Ethereum writes it.
 * The TRON prefix makes a signature for TRON useless on Ethereum and the other way round, although
 * the key and the 20-byte address are the same. TronWeb's older `sign` (V1) hashed a fixed length
 * of 32 and is not accepted: it can sign a transaction id as well as a text.
 */

export function verifyTronMessage(input: { address: string; message: string; signature: string }): { ok: true; signerKey: Uint8Array } | OwnershipFailure {
  const address = parseTronAddress(input.address);
  if (!address.ok) return address;
  const signature = decodeRecoverableSignature(input.signature, "TRON");
  if (!(signature instanceof Uint8Array)) return signature;
  const signerKey = recoverKeccakSigner(signature, tronMessageHash(input.message));
  if (signerKey === undefined) return signatureMismatch();
  if (!(signerKey instanceof Uint8Array)) return signerKey;
  // The recovered key is handed on, so that the key's other addresses are derived without recovering it again.
  return equalBytes(keccakAddressOf(signerKey), address.bytes) ? { ok: true, signerKey } : signatureMismatch();
}

export function tronMessageHash(message: string): Uint8Array {
  const body = utf8ToBytes(message);
  return keccak_256(concatBytes(utf8ToBytes(`\x19TRON Signed Message:\n${body.length}`), body));
}

import { equalBytes } from "@noble/curves/utils.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { signatureMismatch, type OwnershipFailure } from "./ownership-failure.js";
import { parseEthereumAddress } from "./parse-ethereum-address.js";
import { decodeRecoverableSignature, keccakAddressOf, recoverKeccakSigner } from "./recover-keccak-address.js";

/**
 * EIP-191 `personal_sign` (version 0x45): the wallet signs
 * keccak256("\x19Ethereum Signed Message:\n" || decimal byte length || message). The prefix keeps
 * a signed text from ever being a valid transaction. The same on every EVM chain (BSC, Polygon)
 * and for their tokens, which are held at the chain's ordinary addresses.
 */

export function verifyEthereumMessage(input: { address: string; message: string; signature: string }): { ok: true; signerKey: Uint8Array } | OwnershipFailure {
  const address = parseEthereumAddress(input.address);
  if (!address.ok) return address;
  const signature = decodeRecoverableSignature(input.signature, "Ethereum");
  if (!(signature instanceof Uint8Array)) return signature;
  const signerKey = recoverKeccakSigner(signature, ethereumMessageHash(input.message));
  if (signerKey === undefined) return signatureMismatch();
  if (!(signerKey instanceof Uint8Array)) return signerKey;
  // The recovered key is handed on, so that the key's other addresses are derived without recovering it again.
  return equalBytes(keccakAddressOf(signerKey), address.bytes) ? { ok: true, signerKey } : signatureMismatch();
}

/** keccak256("\x19Ethereum Signed Message:\n" + byte length + message), as `personal_sign` hashes. */
export function ethereumMessageHash(message: string): Uint8Array {
  const body = utf8ToBytes(message);
  return keccak_256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${body.length}`), body));
}

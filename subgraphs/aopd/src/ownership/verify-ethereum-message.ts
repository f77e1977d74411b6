import { equalBytes } from "@noble/curves/utils.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { signatureMismatch, type OwnershipFailure } from "./ownership-failure.js";
import { parseEthereumAddress } from "./parse-ethereum-address.js";
import { decodeRecoverableSignature, recoverKeccakAddress } from "./recover-keccak-address.js";

/**
 * EIP-191 `personal_sign` (version 0x45): the wallet signs
 * keccak256("\x19Ethereum Signed Message:\n" || decimal byte length || message). The prefix keeps
 * a signed text from ever being a valid transaction. The same on every EVM chain (BSC, Polygon)
 * and for their tokens, which are held at the chain's ordinary addresses.
 */

export function verifyEthereumMessage(input: { address: string; message: string; signature: string }): { ok: true } | OwnershipFailure {
  const address = parseEthereumAddress(input.address);
  if (!address.ok) return address;
  const signature = decodeRecoverableSignature(input.signature, "Ethereum");
  if (!(signature instanceof Uint8Array)) return signature;
  const recovered = recoverKeccakAddress(signature, ethereumMessageHash(input.message));
  if (recovered === undefined) return signatureMismatch();
  if (!(recovered instanceof Uint8Array)) return recovered;
  return equalBytes(recovered, address.bytes) ? { ok: true } : signatureMismatch();
}

/** keccak256("\x19Ethereum Signed Message:\n" + byte length + message), as `personal_sign` hashes. */
export function ethereumMessageHash(message: string): Uint8Array {
  const body = utf8ToBytes(message);
  return keccak_256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${body.length}`), body));
}

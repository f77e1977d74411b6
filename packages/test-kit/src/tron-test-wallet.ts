import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { toTronAddress, tronMessageHash } from "@compliance-graph/aopd/ownership";

/** The `T...` address of a key: 0x41 and the Keccak address Ethereum would derive, base58check. */
export function tronAddressOf(secretKey: Uint8Array): string {
  return toTronAddress(keccak_256(secp256k1.getPublicKey(secretKey, false).subarray(1)).subarray(12));
}

/** TronLink's `signMessageV2` (TIP-191): r || s || v, v = 27 + recovery id. */
export function signTronMessage(secretKey: Uint8Array, message: string): Uint8Array {
  const recovered = secp256k1.sign(tronMessageHash(message), secretKey, { prehash: false, format: "recovered" });
  const signature = new Uint8Array(65);
  signature.set(recovered.subarray(1), 0);
  signature[64] = 27 + (recovered[0] ?? 0);
  return signature;
}

import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { ethereumMessageHash, toEip55Address } from "@compliance-graph/aopd/ownership";

/** The EIP-55 address of a key: the last 20 bytes of the Keccak-256 of its uncompressed public key. */
export function ethereumAddressOf(secretKey: Uint8Array): string {
  return toEip55Address(keccak_256(secp256k1.getPublicKey(secretKey, false).subarray(1)).subarray(12));
}

/** An EIP-191 `personal_sign` signature as wallets return it: r || s || v, v = 27 + recovery id. */
export function signPersonalMessage(secretKey: Uint8Array, message: string): Uint8Array {
  const recovered = secp256k1.sign(ethereumMessageHash(message), secretKey, { prehash: false, format: "recovered" });
  const signature = new Uint8Array(65);
  signature.set(recovered.subarray(1), 0);
  signature[64] = 27 + (recovered[0] ?? 0);
  return signature;
}

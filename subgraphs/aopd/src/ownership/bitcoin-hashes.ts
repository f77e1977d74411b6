import { schnorr } from "@noble/curves/secp256k1.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";

/** RIPEMD160(SHA256(x)): the 20-byte hash behind P2PKH, P2SH and P2WPKH. */
export function hash160(data: Uint8Array): Uint8Array {
  return ripemd160(sha256(data));
}

/** SHA256(SHA256(x)): transaction ids, legacy message digests, base58check. */
export function doubleSha256(data: Uint8Array): Uint8Array {
  return sha256(sha256(data));
}

/** BIP-340 tagged hash: SHA256(SHA256(tag) || SHA256(tag) || data...). */
export function taggedHash(tag: string, ...data: Uint8Array[]): Uint8Array {
  return schnorr.utils.taggedHash(tag, ...data);
}

/**
 * The P2SH hash of a key nested as P2SH-P2WPKH (BIP-141): HASH160 of the redeem script
 * OP_0 PUSH20(HASH160(key)).
 */
export function nestedSegwitScriptHash(compressedPublicKey: Uint8Array): Uint8Array {
  return hash160(Uint8Array.of(0x00, 0x14, ...hash160(compressedPublicKey)));
}

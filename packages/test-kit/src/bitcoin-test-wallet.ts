import { schnorr, secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToNumberBE, numberToBytesBE } from "@noble/curves/utils.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes } from "@noble/hashes/utils.js";
import { base64, bech32, bech32m, createBase58check } from "@scure/base";
import {
  bip322ToSpend,
  bitcoinMessageHash,
  encodeCompactSize,
  p2wpkhScriptCode,
  parseBitcoinAddress,
  segwitV0Sighash,
  taprootKeyPathSighash,
} from "@compliance-graph/aopd/ownership";

/**
 * A signer for tests: derives the addresses of a key and signs the way wallets do, with the
 * libraries' own signing. The digests come from the module under test, whose hashing is pinned
 * separately to the published BIP-322 and bitcoinjs-message vectors.
 */

const base58check = createBase58check(sha256);
const hash160 = (data: Uint8Array) => ripemd160(sha256(data));
const { Fn } = secp256k1.Point;

export type Hrp = "bc" | "tb" | "bcrt";

export function publicKeyOf(secretKey: Uint8Array, compressed = true): Uint8Array {
  return secp256k1.getPublicKey(secretKey, compressed);
}

export function p2pkhAddress(publicKey: Uint8Array, network: "mainnet" | "testnet" = "mainnet"): string {
  return base58check.encode(concatBytes(Uint8Array.of(network === "mainnet" ? 0x00 : 0x6f), hash160(publicKey)));
}

export function p2shP2wpkhAddress(publicKey: Uint8Array, network: "mainnet" | "testnet" = "mainnet"): string {
  const redeemScript = concatBytes(Uint8Array.of(0x00, 0x14), hash160(publicKey));
  return base58check.encode(concatBytes(Uint8Array.of(network === "mainnet" ? 0x05 : 0xc4), hash160(redeemScript)));
}

export function p2wpkhAddress(publicKey: Uint8Array, hrp: Hrp = "bc"): string {
  return bech32.encode(hrp, [0, ...bech32.toWords(hash160(publicKey))]);
}

export function p2trAddress(outputKey: Uint8Array, hrp: Hrp = "bc"): string {
  return bech32m.encode(hrp, [1, ...bech32m.toWords(outputKey)]);
}

/** The BIP-341 key-path secret for the output key: d, negated to an even-y point, plus the tweak. */
export function taprootKeyPair(secretKey: Uint8Array): { outputKey: Uint8Array; tweakedSecret: Uint8Array } {
  const point = secp256k1.Point.BASE.multiply(bytesToNumberBE(secretKey));
  const evenSecret = point.toAffine().y % 2n === 0n ? bytesToNumberBE(secretKey) : Fn.neg(bytesToNumberBE(secretKey));
  const internalKey = schnorr.utils.pointToBytes(point);
  const tweak = bytesToNumberBE(schnorr.utils.taggedHash("TapTweak", internalKey));
  const tweakedSecret = numberToBytesBE(Fn.add(evenSecret, tweak), 32);
  return { outputKey: schnorr.getPublicKey(tweakedSecret), tweakedSecret };
}

/** A legacy (BIP-137) signature; `headerBase` is 27, 31, 35 or 39. */
export function signLegacy(secretKey: Uint8Array, message: string, headerBase: number): string {
  const recovered = secp256k1.sign(bitcoinMessageHash(message), secretKey, { prehash: false, format: "recovered" });
  const out = Uint8Array.from(recovered);
  out[0] = headerBase + (recovered[0] ?? 0);
  return base64.encode(out);
}

export function encodeWitness(items: readonly Uint8Array[]): Uint8Array {
  return concatBytes(encodeCompactSize(items.length), ...items.flatMap((item) => [encodeCompactSize(item.length), item]));
}

/** The two witness items of a BIP-322 P2WPKH or P2SH-P2WPKH signature, before encoding. */
export function bip322WitnessPublicKeyHash(secretKey: Uint8Array, address: string, message: string): Uint8Array[] {
  const parsed = parseBitcoinAddress(address);
  if (!parsed.ok) throw new Error(parsed.reason);
  const publicKey = publicKeyOf(secretKey);
  const toSpend = bip322ToSpend(parsed.scriptPubKey, message);
  const sighash = segwitV0Sighash(toSpend.txid, p2wpkhScriptCode(hash160(publicKey)));
  const compact = secp256k1.sign(sighash, secretKey, { prehash: false });
  const der = secp256k1.Signature.fromBytes(compact).toBytes("der");
  return [concatBytes(der, Uint8Array.of(0x01)), publicKey];
}

export function signBip322PublicKeyHash(secretKey: Uint8Array, address: string, message: string): string {
  return base64.encode(encodeWitness(bip322WitnessPublicKeyHash(secretKey, address, message)));
}

/** A BIP-322 Taproot key-path signature: 64 bytes for SIGHASH_DEFAULT, 65 with an explicit type byte. */
export function signBip322Taproot(secretKey: Uint8Array, message: string, hashType: 0x00 | 0x01 = 0x00): string {
  const { outputKey, tweakedSecret } = taprootKeyPair(secretKey);
  const scriptPubKey = concatBytes(Uint8Array.of(0x51, 0x20), outputKey);
  const toSpend = bip322ToSpend(scriptPubKey, message);
  const signature = schnorr.sign(taprootKeyPathSighash(toSpend.txid, scriptPubKey, hashType), tweakedSecret);
  const item = hashType === 0x00 ? signature : concatBytes(signature, Uint8Array.of(hashType));
  return base64.encode(encodeWitness([item]));
}

/** The 32-byte secret of a compressed-key WIF string. */
export function secretFromWif(wif: string): Uint8Array {
  const payload = base58check.decode(wif);
  if (payload.length !== 34 || payload[33] !== 0x01) throw new Error("expected a compressed-key WIF");
  return payload.slice(1, 33);
}

/** A fixed key per label, so that every run signs with the same keys and a failure can be replayed. */
export function testSecretKey(label: string): Uint8Array {
  return sha256(new TextEncoder().encode(`aopd ownership test key: ${label}`));
}

import { schnorr } from "@noble/curves/secp256k1.js";
import { bytesToNumberBE } from "@noble/curves/utils.js";
import { taggedHash } from "./bitcoin-hashes.js";

const { Point } = schnorr;

/**
 * The BIP-86 Taproot output key for a single key with no script tree: Q = P + H_TapTweak(P)·G,
 * where P is the even-y point with the given x coordinate (BIP-341 `taproot_tweak_pubkey` with an
 * empty merkle root). Returns the 32-byte x coordinate of Q, which is the P2TR witness program.
 * All curve arithmetic is the library's; this only composes it as BIP-341 prescribes.
 */
export function taprootOutputKey(internalKey: Uint8Array): Uint8Array {
  const xOnly = internalKey.length === 33 ? internalKey.subarray(1) : internalKey;
  if (xOnly.length !== 32) throw new RangeError("A Taproot internal key is 32 bytes (or a 33-byte compressed key).");
  const internalPoint = schnorr.utils.lift_x(bytesToNumberBE(xOnly));
  const tweak = bytesToNumberBE(taggedHash("TapTweak", xOnly));
  // BIP-341 fails rather than reducing a tweak that is not below the group order.
  if (!Point.Fn.isValid(tweak)) throw new RangeError("The Taproot tweak is out of range.");
  const outputPoint = tweak === 0n ? internalPoint : internalPoint.add(Point.BASE.multiply(tweak));
  return schnorr.utils.pointToBytes(outputPoint);
}

import { schnorr } from "@noble/curves/secp256k1.js";
import { bytesToNumberBE, equalBytes } from "@noble/curves/utils.js";
import { concatBytes } from "@noble/hashes/utils.js";
import { taggedHash } from "./bitcoin-hashes.js";
import { encodeCompactSize } from "./compact-size.js";

const { Point } = schnorr;

/** The tapscript leaf version of BIP-342; other versions are unknown scripts. */
export const tapscriptLeafVersion = 0xc0;

/** BIP-341 `tapleaf_hash`: the tagged hash of the leaf version and the serialised script. */
export function tapLeafHash(script: Uint8Array, leafVersion: number = tapscriptLeafVersion): Uint8Array {
  return taggedHash("TapLeaf", Uint8Array.of(leafVersion), encodeCompactSize(script.length), script);
}

/**
 * Whether a script-path control block proves that `leafHash` is committed in the output key
 * `outputKey` (BIP-341, "script validation rules"): walk the merkle path with sorted TapBranch
 * hashes, tweak the internal key with the root, and compare the x coordinate and the parity bit.
 * The caller has checked the control block's length (33 + 32m, m ≤ 128) and leaf version. All
 * curve arithmetic is the library's; this only composes it as BIP-341 prescribes.
 */
export function controlBlockCommitsTo(controlBlock: Uint8Array, leafHash: Uint8Array, outputKey: Uint8Array): boolean {
  let node = leafHash;
  for (let offset = 33; offset < controlBlock.length; offset += 32) {
    const sibling = controlBlock.subarray(offset, offset + 32);
    node = lessOrEqual(node, sibling) ? taggedHash("TapBranch", node, sibling) : taggedHash("TapBranch", sibling, node);
  }
  const internalKey = controlBlock.subarray(1, 33);
  let internalPoint;
  try {
    internalPoint = schnorr.utils.lift_x(bytesToNumberBE(internalKey));
  } catch {
    return false; // not a point on the curve
  }
  const tweak = bytesToNumberBE(taggedHash("TapTweak", concatBytes(internalKey, node)));
  if (!Point.Fn.isValid(tweak)) return false;
  const outputPoint = tweak === 0n ? internalPoint : internalPoint.add(Point.BASE.multiply(tweak));
  const { y } = outputPoint.toAffine();
  const parity = Number(y & 1n);
  return parity === (controlBlock[0]! & 1) && equalBytes(schnorr.utils.pointToBytes(outputPoint), outputKey);
}

function lessOrEqual(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < 32; i += 1) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return true;
}

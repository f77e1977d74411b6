import { bytesToNumberBE } from "@noble/curves/utils.js";

/**
 * Reads an ECDSA signature that is strictly DER encoded (BIP-66), without the trailing sighash
 * byte. BIP-322 demands strict encoding; rejecting everything else also means a signature has
 * exactly one accepted byte form, so a stored proof cannot be re-encoded into a different string
 * that still verifies. Returns `undefined` for anything that is not strict DER.
 */
export function parseStrictDerSignature(der: Uint8Array): { r: bigint; s: bigint } | undefined {
  // 0x30 len 0x02 lenR R 0x02 lenS S, with R and S of 1..33 bytes.
  if (der.length < 8 || der.length > 72) return undefined;
  if (der[0] !== 0x30 || der[1] !== der.length - 2) return undefined;
  const r = readInteger(der, 2);
  if (r === undefined) return undefined;
  const s = readInteger(der, r.next);
  if (s === undefined || s.next !== der.length) return undefined;
  return { r: r.value, s: s.value };
}

function readInteger(der: Uint8Array, offset: number): { value: bigint; next: number } | undefined {
  if (der[offset] !== 0x02) return undefined;
  const length = der[offset + 1];
  if (length === undefined || length === 0) return undefined;
  const start = offset + 2;
  const end = start + length;
  if (end > der.length) return undefined;
  const first = der[start] ?? 0;
  // Negative numbers are not allowed, nor is a leading zero byte that is not needed for the sign.
  if (first & 0x80) return undefined;
  if (length > 1 && first === 0x00 && !((der[start + 1] ?? 0) & 0x80)) return undefined;
  return { value: bytesToNumberBE(der.subarray(start, end)), next: end };
}

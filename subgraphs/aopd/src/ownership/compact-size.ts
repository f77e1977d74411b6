/**
 * Bitcoin's variable-length integer ("CompactSize"), used in front of every script, witness item
 * and message length. Values beyond 2^32 never occur in what this module serialises.
 */
export function encodeCompactSize(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0 || value > 0xffff_ffff) {
    throw new RangeError("CompactSize value out of range");
  }
  if (value < 0xfd) return Uint8Array.of(value);
  if (value <= 0xffff) return Uint8Array.of(0xfd, value & 0xff, value >>> 8);
  const out = new Uint8Array(5);
  out[0] = 0xfe;
  new DataView(out.buffer).setUint32(1, value, true);
  return out;
}

/**
 * Reads a CompactSize at `offset`; `undefined` when the bytes run out or the encoding is not the
 * shortest one (Bitcoin rejects non-canonical sizes, so a proof that uses one is malformed).
 */
export function readCompactSize(bytes: Uint8Array, offset: number): { value: number; next: number } | undefined {
  const first = bytes[offset];
  if (first === undefined) return undefined;
  if (first < 0xfd) return { value: first, next: offset + 1 };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (first === 0xfd) {
    if (offset + 3 > bytes.length) return undefined;
    const value = view.getUint16(offset + 1, true);
    return value < 0xfd ? undefined : { value, next: offset + 3 };
  }
  if (first === 0xfe) {
    if (offset + 5 > bytes.length) return undefined;
    const value = view.getUint32(offset + 1, true);
    return value <= 0xffff ? undefined : { value, next: offset + 5 };
  }
  // 0xff announces a 64-bit length, far beyond anything a signature could hold.
  return undefined;
}

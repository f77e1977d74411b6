import { readCompactSize } from "./compact-size.js";

/**
 * Decodes a consensus-encoded witness stack (the payload of a BIP-322 "simple" signature):
 * CompactSize item count, then each item as CompactSize length and bytes. Every byte must be
 * consumed; trailing data would let two different strings stand for the same proof.
 */
export function decodeWitnessStack(bytes: Uint8Array): Uint8Array[] | undefined {
  const count = readCompactSize(bytes, 0);
  if (count === undefined || count.value === 0) return undefined;
  // Each item needs at least its length byte, which bounds the count before any allocation.
  if (count.value > bytes.length - count.next) return undefined;
  const items: Uint8Array[] = [];
  let offset = count.next;
  for (let i = 0; i < count.value; i += 1) {
    const length = readCompactSize(bytes, offset);
    if (length === undefined || length.next + length.value > bytes.length) return undefined;
    items.push(bytes.slice(length.next, length.next + length.value));
    offset = length.next + length.value;
  }
  return offset === bytes.length ? items : undefined;
}

/**
 * The width and height an image declares in its header, read without decoding a pixel: PNG's IHDR,
 * JPEG's frame header (SOFn), WebP's VP8, VP8L or VP8X header. "more" means the header is not in
 * `head` yet; undefined means the file is malformed where the header should be.
 */
export type ImageDimensions = { width: number; height: number } | "more" | undefined;

export function pngDimensions(head: Buffer): ImageDimensions {
  // Signature (8), then the first chunk, which must be IHDR: length (4), type (4), width (4), height (4).
  if (head.length < 24) return "more";
  if (head.toString("latin1", 12, 16) !== "IHDR") return undefined;
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

// Start-of-frame markers carry the dimensions: C0-CF except DHT (C4), JPG (C8) and DAC (CC).
const startOfFrame = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

export function jpegDimensions(head: Buffer): ImageDimensions {
  let at = 2;
  for (;;) {
    if (at + 1 >= head.length) return "more";
    if (head[at] !== 0xff) return undefined;
    const marker = head[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // Markers without a length: TEM and RST0-7. An image that starts its scan (SOS) or ends (EOI)
    // before any frame header declares no dimensions.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9 || marker === 0xd8) return undefined;
    if (at + 3 >= head.length) return "more";
    const length = head.readUInt16BE(at + 2);
    if (length < 2) return undefined;
    if (startOfFrame.has(marker)) {
      if (at + 8 >= head.length) return "more";
      return { height: head.readUInt16BE(at + 5), width: head.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
}

export function webpDimensions(head: Buffer): ImageDimensions {
  if (head.length < 30) return "more";
  const chunk = head.toString("latin1", 12, 16);
  if (chunk === "VP8 ") {
    // Lossy: a 3-byte frame tag, the start code 9d 01 2a, then 14-bit width and height.
    if (head[23] !== 0x9d || head[24] !== 0x01 || head[25] !== 0x2a) return undefined;
    return { width: head.readUInt16LE(26) & 0x3fff, height: head.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === "VP8L") {
    // Lossless: the signature 0x2f, then width - 1 and height - 1 in 14 bits each.
    if (head[20] !== 0x2f) return undefined;
    const bits = head.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    // Extended: the canvas width - 1 and height - 1 in 24 bits each.
    return { width: head.readUIntLE(24, 3) + 1, height: head.readUIntLE(27, 3) + 1 };
  }
  return undefined;
}

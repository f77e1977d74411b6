import { deflateSync } from "node:zlib";

/**
 * Small files of each accepted type, built here byte by byte so that each test states what it
 * feeds the upload: a real, decodable PNG (the browser test shows it), and the headers of the
 * others, which is all the server reads. `filler` pads a file to a size without changing its type.
 */

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid RGB PNG of `width` x `height`; `pixels: false` leaves the image data out (a header alone). */
export function pngImage(width: number, height: number, options: { pixels?: boolean; seed?: number } = {}): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk("IHDR", header)];
  if (options.pixels !== false) {
    const row = 1 + width * 3;
    const raw = Buffer.alloc(row * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width * 3; x++) raw[y * row + 1 + x] = (x * 7 + y * 13 + (options.seed ?? 0)) & 0xff;
    parts.push(pngChunk("IDAT", deflateSync(raw)));
  }
  parts.push(pngChunk("IEND", Buffer.alloc(0)));
  return Buffer.concat(parts);
}

/** A JPEG whose frame header (SOF0) declares `width` x `height`, after an APP0 segment. */
export function jpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

/** A lossless WebP (VP8L) declaring `width` x `height` (each at most 16384). */
export function webpLosslessHeader(width: number, height: number): Buffer {
  const vp8l = Buffer.alloc(5);
  vp8l[0] = 0x2f;
  vp8l.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 1);
  return riffWebp("VP8L", vp8l);
}

/** An extended WebP (VP8X) declaring a canvas of `width` x `height` (each up to 2^24). */
export function webpExtendedHeader(width: number, height: number): Buffer {
  const vp8x = Buffer.alloc(10);
  vp8x.writeUIntLE(width - 1, 4, 3);
  vp8x.writeUIntLE(height - 1, 7, 3);
  return riffWebp("VP8X", vp8x);
}

function riffWebp(chunk: string, data: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32LE(data.length);
  const body = Buffer.concat([Buffer.from(`WEBP${chunk}`, "latin1"), size, data, Buffer.alloc(16)]);
  const riffSize = Buffer.alloc(4);
  riffSize.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from("RIFF", "latin1"), riffSize, body]);
}

/** The start of an MP4 (ISO base media, `ftyp` box with the given major brand). */
export function mp4Header(brand = "isom"): Buffer {
  const ftyp = Buffer.concat([
    Buffer.from([0, 0, 0, 0x20]),
    Buffer.from(`ftyp${brand}`, "latin1"),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from(`${brand}iso2avc1mp41`, "latin1"),
  ]);
  return Buffer.concat([ftyp, Buffer.from([0, 0, 0, 8]), Buffer.from("free", "latin1"), Buffer.alloc(32)]);
}

/** The start of a WebM (or, with another doc type, a Matroska) file: the EBML header. */
export function webmHeader(docType = "webm"): Buffer {
  const body = Buffer.concat([
    Buffer.from([0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2, 0x81, 0x04, 0x42, 0xf3, 0x81, 0x08, 0x42, 0x82, 0x80 | docType.length]),
    Buffer.from(docType, "latin1"),
    Buffer.from([0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02]),
  ]);
  return Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x80 | body.length]), body, Buffer.alloc(40)]);
}

/** `file` followed by pseudo-random bytes up to `size` (a video's frames, as far as the server cares). */
export function padded(file: Buffer, size: number, seed = 1): Buffer {
  const out = Buffer.alloc(size);
  file.copy(out);
  let state = seed;
  for (let at = file.length; at < size; at++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    out[at] = state >> 16;
  }
  return out;
}

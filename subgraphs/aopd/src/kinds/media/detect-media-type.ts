import type { MediaContentType } from "../../database/database-schema.js";
import { jpegDimensions, pngDimensions, webpDimensions, type ImageDimensions } from "./image-dimensions.js";

export interface MediaType {
  contentType: MediaContentType;
  category: "image" | "video";
  /** Reads the declared dimensions of an image; absent for videos. */
  dimensions?: (head: Buffer) => ImageDimensions;
}

/** How many leading bytes `detectMediaType` needs at most to decide. */
export const mediaSignatureBytes = 64;

// ISO base media brands of MP4 files. Others share the container but are not MP4 (HEIC images
// `heic`/`mif1`, QuickTime `qt  `, 3GPP) and are refused rather than served under the wrong name.
const mp4Brands = new Set(["isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso8", "iso9", "mp41", "mp42", "mp71", "avc1", "dash", "M4V ", "M4VP", "MSNV"]);

/**
 * The file's type from its first bytes, never from its name or a declared type: a browser or
 * wallet may say anything, and the type decides how the file is served and who may open it.
 * Returns "more" when `head` is too short to tell (and the file may go on), undefined when the
 * file is none of PNG, JPEG, WebP, MP4 or WebM.
 */
export function detectMediaType(head: Buffer, complete: boolean): MediaType | "more" | undefined {
  const starts = (bytes: number[], at = 0) => bytes.every((byte, i) => head[at + i] === byte);
  const text = (from: number, to: number) => head.toString("latin1", from, to);
  if (head.length < mediaSignatureBytes && !complete) {
    // Decide early only on the signatures that are unambiguous in a few bytes.
    if (head.length >= 8 && starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return png;
    if (head.length >= 3 && starts([0xff, 0xd8, 0xff])) return jpeg;
    return "more";
  }
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return png;
  if (starts([0xff, 0xd8, 0xff])) return jpeg;
  if (text(0, 4) === "RIFF" && text(8, 12) === "WEBP") return webp;
  if (text(4, 8) === "ftyp" && mp4Brands.has(text(8, 12))) return mp4;
  if (starts([0x1a, 0x45, 0xdf, 0xa3]) && hasWebmDocType(head)) return webm;
  return undefined;
}

/** Matroska and WebM share the EBML header; only the DocType element (0x4282) tells them apart. */
function hasWebmDocType(head: Buffer): boolean {
  const end = Math.min(head.length, mediaSignatureBytes);
  for (let at = 4; at + 7 <= end; at++) {
    if (head[at] === 0x42 && head[at + 1] === 0x82 && head[at + 2] === 0x84) return head.toString("latin1", at + 3, at + 7) === "webm";
  }
  return false;
}

const png: MediaType = { contentType: "image/png", category: "image", dimensions: pngDimensions };
const jpeg: MediaType = { contentType: "image/jpeg", category: "image", dimensions: jpegDimensions };
const webp: MediaType = { contentType: "image/webp", category: "image", dimensions: webpDimensions };
const mp4: MediaType = { contentType: "video/mp4", category: "video" };
const webm: MediaType = { contentType: "video/webm", category: "video" };

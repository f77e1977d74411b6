import { createHash, type Hash } from "node:crypto";
import type { MediaContentType } from "../../database/database-schema.js";
import { SubmissionRefusal } from "../../proofs/proof-refusal.js";
import { detectMediaType, type MediaType } from "./detect-media-type.js";

export interface MediaLimits {
  maxImageBytes: number;
  maxVideoBytes: number;
  maxImagePixels: number;
}

/** What an accepted file turned out to be. */
export interface AcceptedMedia {
  contentType: MediaContentType;
  byteSize: number;
  /** Lowercase hex. */
  sha256: string;
}

/**
 * An image must declare its dimensions within this many leading bytes. A JPEG's metadata (EXIF,
 * ICC profile, thumbnails) comes before its frame header and is usually a few kilobytes; holding
 * more than this per upload to find the header would let a file make us buffer it.
 * @default 1_048_576 // 1 MiB
 */
export const imageHeaderWindowBytes = 1_048_576;

/**
 * Checks an upload as its bytes arrive and cuts it into storage chunks, so that nothing is ever
 * buffered whole: the type from the magic bytes, the size limit of that type (refused at the byte
 * that passes it, not after reading the rest), an image's declared dimensions against the pixel
 * cap (a decompression bomb is a small file declaring a huge canvas), and the SHA-256. Pure: the
 * caller stores the chunks and decides what a refusal undoes. Refusals are `SubmissionRefusal`s.
 */
export class MediaIntake {
  readonly #limits: MediaLimits;
  readonly #chunkBytes: number;
  readonly #hash: Hash = createHash("sha256");
  #size = 0;
  #type: MediaType | undefined;
  /** Leading bytes kept until the type (and an image's dimensions) are checked; then dropped. */
  #head: Buffer | undefined = Buffer.alloc(0);
  #pending: Buffer[] = [];
  #pendingBytes = 0;

  constructor(limits: MediaLimits, chunkBytes: number) {
    this.#limits = limits;
    this.#chunkBytes = chunkBytes;
  }

  /** Takes the next bytes; returns the storage chunks now complete (each exactly `chunkBytes`). */
  push(bytes: Buffer): Buffer[] {
    this.#size += bytes.length;
    const limit = this.#type ? this.#limitOf(this.#type) : Math.max(this.#limits.maxImageBytes, this.#limits.maxVideoBytes);
    if (this.#size > limit) throw this.#tooLarge(limit);
    this.#hash.update(bytes);
    if (this.#head !== undefined) {
      this.#head = Buffer.concat([this.#head, bytes.subarray(0, imageHeaderWindowBytes + 1 - this.#head.length)]);
      this.#inspect(false);
    }
    this.#pending.push(bytes);
    this.#pendingBytes += bytes.length;
    const full: Buffer[] = [];
    while (this.#pendingBytes >= this.#chunkBytes) {
      const joined = Buffer.concat(this.#pending, this.#pendingBytes);
      full.push(joined.subarray(0, this.#chunkBytes));
      const rest = joined.subarray(this.#chunkBytes);
      this.#pending = rest.length > 0 ? [rest] : [];
      this.#pendingBytes = rest.length;
    }
    return full;
  }

  /** The end of the upload: the last (shorter) chunk, if any, and what the file is. */
  finish(): { chunks: Buffer[]; media: AcceptedMedia } {
    if (this.#size === 0) throw new SubmissionRefusal("empty_media", "The upload is empty; send the screenshot or video as the request body.");
    if (this.#head !== undefined) this.#inspect(true);
    const chunks = this.#pendingBytes > 0 ? [Buffer.concat(this.#pending, this.#pendingBytes)] : [];
    this.#pending = [];
    this.#pendingBytes = 0;
    return { chunks, media: { contentType: this.#type!.contentType, byteSize: this.#size, sha256: this.#hash.digest("hex") } };
  }

  #inspect(complete: boolean): void {
    const head = this.#head!;
    if (!this.#type) {
      const detected = detectMediaType(head, complete);
      if (detected === "more") return;
      if (detected === undefined) {
        throw new SubmissionRefusal(
          "unsupported_media_type",
          "The file is not a PNG, JPEG or WebP image nor an MP4 or WebM video (judged by its content, not its name).",
        );
      }
      this.#type = detected;
      const limit = this.#limitOf(detected);
      if (this.#size > limit) throw this.#tooLarge(limit);
    }
    const read = this.#type.dimensions;
    if (!read) {
      this.#head = undefined;
      return;
    }
    const dimensions = read(head);
    const name = this.#type.contentType.slice("image/".length).toUpperCase();
    if (dimensions === "more") {
      if (!complete && head.length <= imageHeaderWindowBytes) return;
      throw new SubmissionRefusal(
        "invalid_image",
        `The ${name} image declares no dimensions within its first ${complete ? head.length : imageHeaderWindowBytes} bytes.`,
      );
    }
    if (dimensions === undefined || dimensions.width === 0 || dimensions.height === 0) {
      throw new SubmissionRefusal("invalid_image", `The ${name} image's header is malformed.`);
    }
    const pixels = dimensions.width * dimensions.height;
    if (pixels > this.#limits.maxImagePixels) {
      throw new SubmissionRefusal(
        "image_too_large",
        `The image is ${dimensions.width} x ${dimensions.height} pixels (${pixels}); at most ${this.#limits.maxImagePixels} pixels are accepted.`,
      );
    }
    this.#head = undefined;
  }

  #limitOf(type: MediaType): number {
    return type.category === "image" ? this.#limits.maxImageBytes : this.#limits.maxVideoBytes;
  }

  #tooLarge(limit: number): SubmissionRefusal {
    const what = this.#type ? (this.#type.category === "image" ? "An image" : "A video") : "A file";
    return new SubmissionRefusal("media_too_large", `${what} may have at most ${limit} bytes; this upload has more.`);
  }
}

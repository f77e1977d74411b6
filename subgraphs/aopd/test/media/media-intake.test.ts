import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { MediaIntake, type MediaLimits } from "../../src/kinds/media/media-intake.js";
import { SubmissionRefusal } from "../../src/proofs/proof-refusal.js";
import { jpegHeader, mp4Header, padded, pngImage, webmHeader, webpExtendedHeader, webpLosslessHeader } from "@compliance-graph/test-kit";

const limits: MediaLimits = { maxImageBytes: 10_000, maxVideoBytes: 50_000, maxImagePixels: 50_000_000 };

/** Feeds `file` in pieces of `piece` bytes, as a network would, and returns what the intake made of it. */
function take(file: Buffer, piece = 7, chunkBytes = 4_096) {
  const intake = new MediaIntake(limits, chunkBytes);
  const chunks: Buffer[] = [];
  for (let at = 0; at < file.length; at += piece) chunks.push(...intake.push(file.subarray(at, at + piece)));
  const end = intake.finish();
  return { media: end.media, chunks: [...chunks, ...end.chunks] };
}

function refusal(file: Buffer, piece = 7): { code: string; reason: string } {
  try {
    take(file, piece);
  } catch (error) {
    if (error instanceof SubmissionRefusal) return { code: error.refusal, reason: error.message };
    throw error;
  }
  throw new Error("the file was accepted");
}

describe("MediaIntake", () => {
  it.each([
    ["image/png", pngImage(40, 30)],
    ["image/jpeg", padded(jpegHeader(4000, 3000), 2_000)],
    ["image/webp", webpLosslessHeader(1024, 768)],
    ["image/webp", webpExtendedHeader(7000, 7000)],
    ["video/mp4", padded(mp4Header(), 20_000)],
    ["video/mp4", padded(mp4Header("mp42"), 20_000)],
    ["video/webm", padded(webmHeader(), 20_000)],
  ])("takes %s by its magic bytes, whole and byte for byte, with its SHA-256", (contentType, file) => {
    for (const piece of [1, 7, 65_536]) {
      const { media, chunks } = take(file, piece);
      expect(media).toEqual({ contentType, byteSize: file.length, sha256: createHash("sha256").update(file).digest("hex") });
      expect(Buffer.concat(chunks).equals(file)).toBe(true);
      expect(chunks.slice(0, -1).every((chunk) => chunk.length === 4_096)).toBe(true);
    }
  });

  it.each([
    ["GIF", Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1")],
    ["HTML named .png", Buffer.from("<html><script>alert(1)</script></html>".padEnd(100), "latin1")],
    ["SVG", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'.padEnd(100), "latin1")],
    ["PDF", Buffer.from("%PDF-1.7\n".padEnd(100), "latin1")],
    ["HEIC (ISO media, not MP4)", padded(mp4Header("heic"), 200)],
    ["QuickTime", padded(mp4Header("qt  "), 200)],
    ["Matroska (EBML, not WebM)", padded(webmHeader("matroska"), 200)],
    ["a few bytes", Buffer.from([0x89, 0x50])],
  ])("refuses %s as unsupported_media_type", (_name, file) => {
    expect(refusal(file)).toEqual({
      code: "unsupported_media_type",
      reason: expect.stringContaining("not a PNG, JPEG or WebP image nor an MP4 or WebM video"),
    });
  });

  it("refuses an empty upload", () => {
    expect(refusal(Buffer.alloc(0)).code).toBe("empty_media");
  });

  it("refuses an image past the image limit at the byte that passes it, though a video could be that large", () => {
    const intake = new MediaIntake(limits, 4_096);
    const file = padded(jpegHeader(100, 100), 10_001);
    intake.push(file.subarray(0, 10_000));
    expect(() => intake.push(file.subarray(10_000))).toThrow(
      expect.objectContaining({ refusal: "media_too_large", message: "An image may have at most 10000 bytes; this upload has more." }),
    );
    expect(take(padded(jpegHeader(100, 100), 10_000)).media.byteSize).toBe(10_000);
  });

  it("refuses a video past the video limit while streaming", () => {
    expect(refusal(padded(mp4Header(), 50_001), 4_096)).toEqual({
      code: "media_too_large",
      reason: "A video may have at most 50000 bytes; this upload has more.",
    });
  });

  it.each([
    ["PNG", pngImage(100_000, 100_000, { pixels: false }), "100000 x 100000"],
    ["JPEG", jpegHeader(65_000, 65_000), "65000 x 65000"],
    ["WebP VP8X", webpExtendedHeader(16_000_000, 16_000_000), "16000000 x 16000000"],
    ["WebP VP8L", webpLosslessHeader(16_384, 16_384), "16384 x 16384"],
  ])("refuses a decompression bomb %s by its declared dimensions", (_name, file, size) => {
    expect(refusal(file)).toEqual({ code: "image_too_large", reason: expect.stringContaining(`${size} pixels`) });
  });

  it("refuses images whose header is malformed or missing", () => {
    const noIhdr = pngImage(10, 10);
    noIhdr.write("IDAT", 12, "latin1");
    expect(refusal(noIhdr).code).toBe("invalid_image");
    expect(refusal(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 0, 0, 0, 0, 0, 0])).code).toBe("invalid_image");
    expect(refusal(pngImage(0, 10)).code).toBe("invalid_image");
    // A JPEG that buries its frame header past the first MiB behind comment segments.
    const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0xff, 0xff]), Buffer.alloc(65_533)]);
    const buried = Buffer.concat([Buffer.from([0xff, 0xd8]), ...Array.from({ length: 17 }, () => comment), jpegHeader(10, 10).subarray(2)]);
    const intake = new MediaIntake({ ...limits, maxImageBytes: 2_000_000 }, 65_536);
    expect(() => {
      for (let at = 0; at < buried.length; at += 65_536) intake.push(buried.subarray(at, at + 65_536));
      intake.finish();
    }).toThrow(expect.objectContaining({ refusal: "invalid_image", message: expect.stringContaining("first 1048576 bytes") }));
  });
});

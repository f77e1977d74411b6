import type { ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import type { Logger } from "@compliance-graph/process-shell";
import type { ProofMedia } from "../kinds/media/read-proof-media.js";

/**
 * Sends a proof's file as a download. Threat: the file comes from a customer, and an officer opens
 * it in a browser that is logged in to internal tools; a file that a browser renders as HTML or
 * script (a polyglot, a type sniffed from content) would run there. So the type sent is only the
 * one its magic bytes proved (never the uploader's claim), `nosniff` forbids guessing another,
 * `attachment` makes it a download rather than a page, and the sandbox CSP disarms it should a
 * browser render it anyway. `Content-Length` and `Repr-Digest` let the client check that it got
 * all of it and the right bytes; a failed integrity check mid-stream destroys the response so the
 * transfer ends short instead of looking complete.
 */
export async function serveProofMedia(
  response: ServerResponse,
  proofId: string,
  media: ProofMedia,
  options: { headOnly: boolean; logger: Logger; requestId: string },
): Promise<void> {
  const extension = media.contentType.slice(media.contentType.indexOf("/") + 1);
  response.writeHead(200, {
    "content-type": media.contentType,
    "content-length": String(media.byteSize),
    "content-disposition": `attachment; filename="proof-${proofId}.${extension}"`,
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
    "cache-control": "private, no-store",
    "repr-digest": `sha-256=:${Buffer.from(media.sha256, "hex").toString("base64")}:`,
  });
  if (options.headOnly) return void response.end();
  try {
    await pipeline(Readable.from(media.chunks), response);
  } catch (error) {
    options.logger.error({ err: error, requestId: options.requestId, proofId }, "media download aborted");
    response.destroy();
  }
}

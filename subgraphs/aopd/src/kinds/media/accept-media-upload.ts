import type { AuditOrigin } from "../../audit/audit-origin.js";
import type { IncomingMessage } from "node:http";
import type { Kysely } from "kysely";
import type { AopdConfig } from "../../aopd-config.js";
import type { AopdDatabase } from "../../database/database-schema.js";
import { ProofRefusal, SubmissionRefusal } from "../../proofs/proof-refusal.js";
import type { MediaLimits } from "./media-intake.js";
import type { MediaUploadSlots } from "./media-upload-slots.js";
import { withMinimumUploadRate } from "./minimum-upload-rate.js";
import { storeProofMedia, type MediaUploadTarget, type StoredMedia } from "./store-proof-media.js";

export function mediaLimitsOf(config: AopdConfig): MediaLimits {
  return { maxImageBytes: config.mediaMaxImageBytes, maxVideoBytes: config.mediaMaxVideoBytes, maxImagePixels: config.mediaMaxImagePixels };
}

/**
 * One upload over HTTP, for the portal and the officers' route alike: the request body is the
 * raw file (any declared type is ignored; the content decides). A body announced larger than any
 * accepted file is refused before a byte is read; a body that stops arriving for
 * `AOPD_UPLOAD_IDLE_SECONDS` is cut off (its transaction rolls back), and so is one slower than
 * `AOPD_UPLOAD_MIN_BYTES_PER_SECOND` over a window (`upload_too_slow`, answered with the connection
 * closed); at most `AOPD_MAX_CONCURRENT_UPLOADS` run at once, one per proof, and
 * `AOPD_MAX_UPLOADS_PER_CLIENT` per sender (see `MediaUploadSlots`). After another refusal the rest
 * of the body is read and dropped (up to the largest accepted size), so the client, still sending,
 * receives the answer instead of a reset connection.
 */
export async function acceptMediaUpload(
  services: { db: Kysely<AopdDatabase>; config: AopdConfig; uploadSlots: MediaUploadSlots },
  request: IncomingMessage,
  target: MediaUploadTarget,
  /** Who sends it, for the per-client bound: `address:<client address>` on the portal, `officer:<subject>` on the officers' route. */
  sender: string,
  /** Who attaches it, as the audit trail names them: the customer on the portal, the officer on their route. */
  origin: AuditOrigin,
): Promise<StoredMedia> {
  const limits = mediaLimitsOf(services.config);
  const largest = Math.max(limits.maxImageBytes, limits.maxVideoBytes);
  const declared = Number(request.headers["content-length"] ?? Number.NaN);
  if (declared > largest) {
    // Answered at once, without reading the body (Node discards what arrives after the answer).
    throw new SubmissionRefusal("media_too_large", `A file may have at most ${largest} bytes; this one announces ${declared}.`);
  }
  request.setTimeout(services.config.uploadIdleSeconds * 1_000, () => request.destroy(new Error("the upload stopped sending")));
  const targetKey = "id" in target ? `proof:${target.id.toLowerCase()}` : `credential:${target.credentialHash.toString("hex")}`;
  // Refused at once, like an oversize body: answered without reading a byte, so that a client
  // trickling its body waits for nothing (Node discards what arrives after the answer).
  const release = services.uploadSlots.take({ target: targetKey, sender });
  try {
    try {
      // A refusal mid-body must leave the request open: its answer still has to be sent on it.
      const body = withMinimumUploadRate(request.iterator({ destroyOnReturn: false }), {
        minBytesPerSecond: services.config.uploadMinBytesPerSecond,
        windowSeconds: services.config.uploadRateWindowSeconds,
      });
      return await storeProofMedia(services.db, limits, target, body, origin);
    } finally {
      release();
    }
  } catch (error) {
    // A body too slow is not read any further: its answer closes the connection instead (see sendPublicRouteError).
    const readRest = error instanceof ProofRefusal && error.refusal !== "upload_too_slow";
    if (readRest && !request.complete && !request.destroyed) await discardRest(request, largest);
    throw error;
  }
}

async function discardRest(request: IncomingMessage, maxBytes: number): Promise<void> {
  let read = 0;
  try {
    for await (const bytes of request) {
      read += (bytes as Buffer).length;
      if (read > maxBytes) break;
    }
  } catch {
    // The client went away: nobody is left to answer.
  }
}

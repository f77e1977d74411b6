import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import type { AopdDatabase, MediaContentType } from "../database/database-schema.js";

export interface ProofMedia {
  contentType: MediaContentType;
  byteSize: number;
  sha256: string;
  /** The file's bytes, a chunk at a time; throws `MediaIntegrityError` at the end if they are not the stored ones. */
  chunks: AsyncIterable<Buffer>;
}

/** The stored bytes differ from what was uploaded (a chunk missing, altered or extra). */
export class MediaIntegrityError extends Error {
  constructor(proofId: string, detail: string) {
    super(`The media of proof ${proofId} failed its integrity check: ${detail}.`);
  }
}

/**
 * A proof's file, for streaming out: its metadata, then the chunks read one query at a time in
 * order, so memory holds one chunk whatever the file's size and no connection is held between
 * chunks. The bytes are hashed as they pass; the caller has sent them already when a mismatch is
 * found, so it must abort the response (the client then sees a truncated transfer, never a
 * complete-looking wrong file). Undefined when the proof has no file (or does not exist).
 */
export async function readProofMedia(db: Kysely<AopdDatabase>, proofId: string): Promise<ProofMedia | undefined> {
  const proof = await db
    .selectFrom("aopd_proof")
    .select(["id", "media_content_type", "media_byte_size", "media_sha256"])
    .where("id", "=", proofId)
    .executeTakeFirst();
  if (!proof || proof.media_content_type === null || proof.media_sha256 === null || proof.media_byte_size === null) return undefined;
  const { id, media_sha256: sha256 } = proof;
  const byteSize = Number(proof.media_byte_size);
  async function* chunks(): AsyncGenerator<Buffer> {
    const hash = createHash("sha256");
    let sent = 0;
    for (let position = 0; sent < byteSize; position++) {
      const chunk = await db.selectFrom("aopd_proof_media_chunk").select("data").where("proof_id", "=", id).where("position", "=", position).executeTakeFirst();
      if (!chunk) throw new MediaIntegrityError(id, `chunk ${position} is missing after ${sent} of ${byteSize} bytes`);
      const data = Buffer.from(chunk.data);
      if (sent + data.length > byteSize) throw new MediaIntegrityError(id, `the chunks hold more than ${byteSize} bytes`);
      hash.update(data);
      sent += data.length;
      yield data;
    }
    if (hash.digest("hex") !== sha256) throw new MediaIntegrityError(id, "the SHA-256 of the stored bytes differs from the uploaded file's");
  }
  return { contentType: proof.media_content_type, byteSize, sha256, chunks: chunks() };
}

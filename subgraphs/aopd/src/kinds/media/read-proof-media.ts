import { createHash } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { AopdDatabase, MediaContentType } from "../../database/database-schema.js";

export interface ProofMedia {
  contentType: MediaContentType;
  byteSize: number;
  sha256: string;
  /** The file's bytes, a chunk at a time; throws `MediaIntegrityError` at the end if they are not the stored ones. */
  chunks: AsyncIterable<Buffer>;
}

/** The stored bytes differ from what was uploaded (a chunk missing, altered or extra). */
export class MediaIntegrityError extends Error {
  readonly code = "MEDIA_INTEGRITY";

  constructor(proofId: string, detail: string) {
    super(`The media of proof ${proofId} failed its integrity check: ${detail}.`);
  }
}

/**
 * Bytes read per query. The driver returns bytea as hex text (twice the bytes, then decoded), so a
 * stored 1 MiB chunk is read in slices to keep each read's garbage small; with the chunks stored
 * uncompressed (`STORAGE EXTERNAL`), PostgreSQL fetches only the TOAST pages a slice covers.
 * @default 262_144 // 256 KiB
 */
export const mediaReadSliceBytes = 262_144;

/**
 * A proof's file, for streaming out: its metadata, then its bytes read one slice per query in
 * order, so memory holds one slice whatever the file's size and no connection is held between
 * slices. The bytes are hashed as they pass; the caller has sent them already when a mismatch is
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
      for (let offset = 0; sent < byteSize; offset += mediaReadSliceBytes) {
        const slice = await sql<{ data: Buffer }>`
          SELECT substring(data FROM ${offset + 1}::integer FOR ${mediaReadSliceBytes}::integer) AS data
          FROM aopd_proof_media_chunk WHERE proof_id = ${id} AND position = ${position}
        `
          .execute(db)
          .then((result) => result.rows[0]);
        if (!slice) throw new MediaIntegrityError(id, `chunk ${position} is missing after ${sent} of ${byteSize} bytes`);
        const { data } = slice;
        if (data.length === 0 && offset === 0) throw new MediaIntegrityError(id, `chunk ${position} is empty`);
        if (sent + data.length > byteSize) throw new MediaIntegrityError(id, `the chunks hold more than ${byteSize} bytes`);
        hash.update(data);
        sent += data.length;
        if (data.length > 0) yield data;
        if (data.length < mediaReadSliceBytes) break;
      }
    }
    if (hash.digest("hex") !== sha256) throw new MediaIntegrityError(id, "the SHA-256 of the stored bytes differs from the uploaded file's");
  }
  return { contentType: proof.media_content_type, byteSize, sha256, chunks: chunks() };
}

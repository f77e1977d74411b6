import { createHash } from "node:crypto";
import { appendAuditEntry } from "../../audit/append-audit-entry.js";
import type { AuditOrigin } from "../../audit/audit-origin.js";
import { evidenceHashOf } from "../../proofs/evidence-hash.js";
import { sql, type Kysely } from "kysely";
import type { AopdDatabase, ProofRow } from "../../database/database-schema.js";
import { BusyRefusal, ProofStateRefusal, UnknownProofRefusal } from "../../proofs/proof-refusal.js";
import { MediaIntake, type MediaLimits } from "./media-intake.js";

/**
 * Bytes per stored chunk. Large enough that a 100 MB video is a hundred inserts, small enough that
 * an upload holds about two chunks in memory (the one being filled, the one being written).
 * @default 1_048_576 // 1 MiB
 */
export const mediaChunkBytes = 1_048_576;

/**
 * How long an upload waits for its proof's row lock. Other writers hold it for a statement
 * (milliseconds); only another upload holds it for long.
 * @default 2_000 // 2 seconds
 */
export const rowLockWaitMs = 2_000;

/** Which proof an upload is for: the customer names it by credential, an officer by id. */
export type MediaUploadTarget = { credentialHash: Buffer } | { id: string };

export interface StoredMedia {
  row: ProofRow;
  /** The same file was already attached (a retry after a lost answer); nothing changed. */
  repeated: boolean;
}

/** Thrown inside the transaction to leave it when the proof is no longer pending. */
class NotPending {
  constructor(readonly row: ProofRow) {}
}

/**
 * Attaches an uploaded file to a PENDING media proof: one transaction locks the proof row, streams
 * the body through `MediaIntake` into `aopd_proof_media_chunk` chunk by chunk, and moves the proof
 * to SUBMITTED with the file's metadata. Any refusal, an interrupted body or a crash rolls the
 * whole transaction back, so an upload either completes or leaves nothing; the row lock makes a
 * second concurrent upload of one proof wait (at most `rowLockWaitMs`, then `upload_in_progress`),
 * and if the first ends in time, find the proof SUBMITTED.
 *
 * A proof that already has a file answers an upload of the same bytes (same SHA-256: a retry
 * after a lost answer) with the proof as it now stands, and any other with `not_pending`.
 */
export async function storeProofMedia(
  db: Kysely<AopdDatabase>,
  limits: MediaLimits,
  target: MediaUploadTarget,
  body: AsyncIterable<Buffer>,
  origin: AuditOrigin,
): Promise<StoredMedia> {
  try {
    const row = await db.transaction().execute(async (trx) => {
      // An upload of this proof in progress elsewhere (another replica, the other door) holds the row
      // lock for as long as its body takes: refuse after a short wait instead of holding a slot behind it.
      await sql`SET LOCAL lock_timeout = ${sql.lit(`${rowLockWaitMs}ms`)}`.execute(trx);
      const proof = await sql<ProofRow>`SELECT * FROM aopd_proof WHERE ${whereTarget(target)} FOR UPDATE`.execute(trx).then((result) => result.rows[0]);
      if (!proof) throw new UnknownProofRefusal("This link does not belong to a proof.");
      if (proof.kind !== "media") throw new ProofStateRefusal("wrong_kind", `This is a ${proof.kind} proof; only media proofs take a file.`);
      if (proof.status !== "PENDING") throw new NotPending(proof);
      if (proof.due_at !== null && new Date(proof.due_at).getTime() <= Date.now()) {
        throw new ProofStateRefusal("expired", "The proof's due time has passed; ask for a new proof.");
      }
      const intake = new MediaIntake(limits, mediaChunkBytes);
      let position = 0;
      const write = async (chunks: Buffer[]) => {
        for (const data of chunks) {
          await trx.insertInto("aopd_proof_media_chunk").values({ proof_id: proof.id, position, data }).execute();
          position += 1;
        }
      };
      for await (const bytes of body) await write(intake.push(bytes));
      const { chunks, media } = intake.finish();
      await write(chunks);
      // The status change fires the event log's trigger in this same transaction.
      const submitted = await trx
        .updateTable("aopd_proof")
        .set({
          status: "SUBMITTED",
          due_at: null,
          updated_at: sql<Date>`now()`,
          media_content_type: media.contentType,
          media_byte_size: media.byteSize,
          media_sha256: media.sha256,
          media_uploaded_at: sql<Date>`now()`,
        })
        .where("id", "=", proof.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      // The customer's file is their evidence; a file an officer received another way is attached by them.
      await appendAuditEntry(trx, {
        origin,
        action: "id" in target ? "MEDIA_ATTACHED" : "SUBMITTED",
        proofId: proof.id,
        details: { evidence: "media", evidenceHash: evidenceHashOf(submitted), contentType: media.contentType, byteSize: media.byteSize },
      });
      return submitted;
    });
    return { row, repeated: false };
  } catch (error) {
    if ((error as { code?: unknown }).code === "55P03") {
      throw new BusyRefusal(
        "Another upload for this proof is in progress; wait until it has finished (or failed) before sending the file again.",
        5,
        "upload_in_progress",
      );
    }
    if (!(error instanceof NotPending)) throw error;
    return answerRepeatedUpload(limits, error.row, body);
  }
}

/** Outside any transaction: only the hash of the body is needed, not a connection held while it arrives. */
async function answerRepeatedUpload(limits: MediaLimits, row: ProofRow, body: AsyncIterable<Buffer>): Promise<StoredMedia> {
  if (row.media_sha256 === null) {
    if (row.status === "EXPIRED") throw new ProofStateRefusal("expired", "The proof's due time has passed; ask for a new proof.");
    throw new ProofStateRefusal("not_pending", `The proof is ${row.status}; only a pending proof takes a file.`, row.status);
  }
  const limit = Math.max(limits.maxImageBytes, limits.maxVideoBytes);
  const hash = createHash("sha256");
  let size = 0;
  for await (const bytes of body) {
    size += bytes.length;
    if (size > limit) break;
    hash.update(bytes);
  }
  if (size <= limit && hash.digest("hex") === row.media_sha256) return { row, repeated: true };
  throw new ProofStateRefusal("not_pending", `The proof is ${row.status} with another file; a proof takes one file.`, row.status);
}

function whereTarget(target: MediaUploadTarget) {
  return "id" in target ? sql`id = ${target.id.toLowerCase()}::uuid` : sql`callback_token_hash = ${target.credentialHash}`;
}

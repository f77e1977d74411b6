import { sql, type Kysely } from "kysely";

/**
 * Media proofs: a screenshot or video of the customer's wallet, reviewed by an officer.
 *
 * - Their metadata (content type, size, SHA-256, upload time) are columns of `aopd_proof`, so the
 *   event log's copy of the row (`to_jsonb(NEW)`, migration 0004) carries them to subscribers.
 * - The bytes live in `aopd_proof_media_chunk`, one row per chunk, keyed by proof and position:
 *   written in the transaction that moves the proof to SUBMITTED, read back in order, deleted with
 *   the proof (ON DELETE CASCADE), so no chunk outlives its proof and no proof names missing media.
 * - `STORAGE EXTERNAL`: the chunks are PNG, JPEG, WebP, MP4 or WebM, already compressed; TOAST
 *   would spend CPU trying to compress them again for nothing.
 * - The CHECK keeps each kind's columns honest: media metadata are all set or all null, set
 *   exactly when the proof has left PENDING/EXPIRED, and null on the other kinds.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE aopd_proof DROP CONSTRAINT aopd_proof_kind_check`.execute(db);
  await sql`ALTER TABLE aopd_proof ADD CONSTRAINT aopd_proof_kind_check CHECK (kind IN ('signature', 'satoshi', 'media'))`.execute(db);
  await sql`
    ALTER TABLE aopd_proof
      ADD COLUMN media_content_type text CHECK (media_content_type IN ('image/png', 'image/jpeg', 'image/webp', 'video/mp4', 'video/webm')),
      ADD COLUMN media_byte_size bigint CHECK (media_byte_size > 0),
      ADD COLUMN media_sha256 text CHECK (media_sha256 ~ '^[0-9a-f]{64}$'),
      ADD COLUMN media_uploaded_at timestamptz(3)
  `.execute(db);
  await sql`ALTER TABLE aopd_proof DROP CONSTRAINT aopd_proof_kind_columns`.execute(db);
  await sql`
    ALTER TABLE aopd_proof ADD CONSTRAINT aopd_proof_kind_columns CHECK (
      (kind = 'satoshi' AND amount IS NOT NULL AND deposit_address IS NOT NULL AND format IS NULL AND signature IS NULL AND xpub IS NULL AND media_sha256 IS NULL)
      OR (kind = 'signature' AND amount IS NULL AND deposit_address IS NULL AND tx_id IS NULL AND assessment IS NULL AND media_sha256 IS NULL)
      OR (kind = 'media' AND amount IS NULL AND deposit_address IS NULL AND tx_id IS NULL AND format IS NULL AND message IS NULL AND signature IS NULL AND xpub IS NULL
          AND (media_sha256 IS NULL) = (status IN ('PENDING', 'EXPIRED')))
    )
  `.execute(db);
  await sql`
    ALTER TABLE aopd_proof ADD CONSTRAINT aopd_proof_media_columns CHECK (
      (media_content_type IS NULL AND media_byte_size IS NULL AND media_sha256 IS NULL AND media_uploaded_at IS NULL)
      OR (media_content_type IS NOT NULL AND media_byte_size IS NOT NULL AND media_sha256 IS NOT NULL AND media_uploaded_at IS NOT NULL)
    )
  `.execute(db);
  await sql`
    CREATE TABLE aopd_proof_media_chunk (
      proof_id uuid NOT NULL REFERENCES aopd_proof (id) ON DELETE CASCADE,
      position integer NOT NULL CHECK (position >= 0),
      data bytea NOT NULL,
      PRIMARY KEY (proof_id, position)
    )
  `.execute(db);
  await sql`ALTER TABLE aopd_proof_media_chunk ALTER COLUMN data SET STORAGE EXTERNAL`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE aopd_proof_media_chunk`.execute(db);
  await sql`DELETE FROM aopd_proof WHERE kind = 'media'`.execute(db);
  await sql`ALTER TABLE aopd_proof DROP CONSTRAINT aopd_proof_media_columns`.execute(db);
  await sql`ALTER TABLE aopd_proof DROP CONSTRAINT aopd_proof_kind_columns`.execute(db);
  await sql`
    ALTER TABLE aopd_proof ADD CONSTRAINT aopd_proof_kind_columns CHECK (
      (kind = 'satoshi' AND amount IS NOT NULL AND deposit_address IS NOT NULL AND format IS NULL AND signature IS NULL AND xpub IS NULL)
      OR (kind = 'signature' AND amount IS NULL AND deposit_address IS NULL AND tx_id IS NULL AND assessment IS NULL)
    )
  `.execute(db);
  await sql`ALTER TABLE aopd_proof DROP COLUMN media_content_type, DROP COLUMN media_byte_size, DROP COLUMN media_sha256, DROP COLUMN media_uploaded_at`.execute(db);
  await sql`ALTER TABLE aopd_proof DROP CONSTRAINT aopd_proof_kind_check`.execute(db);
  await sql`ALTER TABLE aopd_proof ADD CONSTRAINT aopd_proof_kind_check CHECK (kind IN ('signature', 'satoshi'))`.execute(db);
}

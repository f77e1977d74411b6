import { sql, type Kysely } from "kysely";

/**
 * AOPP ingestion: the callback token of a pending signature proof (only its SHA-256 hash is
 * stored, so a leaked table does not hand out tokens that verify proofs) and whether the request
 * demanded an xpub.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE aopd_proof ADD COLUMN callback_token_hash bytea`.execute(db);
  await sql`ALTER TABLE aopd_proof ADD COLUMN xpub_required boolean NOT NULL DEFAULT false`.execute(db);
  await sql`CREATE UNIQUE INDEX aopd_proof_callback_token_idx ON aopd_proof (callback_token_hash) WHERE callback_token_hash IS NOT NULL`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX aopd_proof_callback_token_idx`.execute(db);
  await sql`ALTER TABLE aopd_proof DROP COLUMN xpub_required, DROP COLUMN callback_token_hash`.execute(db);
}

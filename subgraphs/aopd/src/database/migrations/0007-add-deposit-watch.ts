import { sql, type Kysely } from "kysely";

/**
 * Watching the deposit address of a PENDING Satoshi proof whose customer never reports the
 * transaction (`AOPD_CHAIN_WATCH_PENDING`).
 *
 * - `chain_scan_cursor`: how far the watch has looked, in the connection's own terms (on EVM
 *   networks the next block number to scan), so that each pass goes on where the last one
 *   stopped, whichever replica made it. Null until the first pass.
 *
 * The lease is `chain_checked_at` (migration 0006), as for SUBMITTED proofs; this index is the
 * queue of PENDING ones.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE aopd_proof ADD COLUMN chain_scan_cursor text`.execute(db);
  await sql`
    CREATE INDEX aopd_proof_deposit_watch_queue ON aopd_proof (asset, chain_checked_at NULLS FIRST)
    WHERE kind = 'satoshi' AND status = 'PENDING'
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX aopd_proof_deposit_watch_queue`.execute(db);
  await sql`ALTER TABLE aopd_proof DROP COLUMN chain_scan_cursor`.execute(db);
}

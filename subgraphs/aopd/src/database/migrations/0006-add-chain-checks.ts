import { sql, type Kysely } from "kysely";

/**
 * What the chain watcher needs on a Satoshi proof, and what it found.
 *
 * - `chain_check_until`: reporting the transaction clears `due_at` (a SUBMITTED proof never
 *   expires), but the watcher must still stop at the proof's due time and leave the rest to an
 *   officer; the due time is kept here when the proof is submitted.
 * - `chain_checked_at`: when a replica last took the proof for a check. It is the lease that
 *   keeps replicas from checking one proof twice at once, and the order in which proofs are
 *   checked (least recently first), so no proof starves behind a long queue.
 * - `block_height`, `confirmations`: the block that holds the transaction and how deep it was at
 *   the last check (at verification: the confirmations that counted).
 * - `failure_reason`: why the chain contradicts the request, for the compliance team.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aopd_proof
      ADD COLUMN chain_check_until timestamptz,
      ADD COLUMN chain_checked_at timestamptz,
      ADD COLUMN block_height bigint,
      ADD COLUMN confirmations integer,
      ADD COLUMN failure_reason text
  `.execute(db);
  // The watcher's queue: only proofs waiting for a check, in the order they are taken.
  await sql`
    CREATE INDEX aopd_proof_chain_queue ON aopd_proof (asset, chain_checked_at NULLS FIRST)
    WHERE kind = 'satoshi' AND status = 'SUBMITTED' AND chain_check_until IS NOT NULL
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX aopd_proof_chain_queue`.execute(db);
  await sql`
    ALTER TABLE aopd_proof
      DROP COLUMN chain_check_until,
      DROP COLUMN chain_checked_at,
      DROP COLUMN block_height,
      DROP COLUMN confirmations,
      DROP COLUMN failure_reason
  `.execute(db);
}

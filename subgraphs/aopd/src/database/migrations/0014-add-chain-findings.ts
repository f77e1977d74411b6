import { sql, type Kysely } from "kysely";

/**
 * What the chain check found, kept with the Satoshi proof beside `block_height` and
 * `confirmations` (migration 0006), so that the record shows the evidence and not only the verdict:
 *
 * - `block_hash`: the block that holds the test transaction (a height alone is ambiguous across a
 *   reorganisation; the hash names one block);
 * - `amount_received`: the sum the transaction paid the deposit address, in the lowest
 *   denomination (numeric(78,0), as `amount`); `amount_received_units`: the same in whole units,
 *   with the asset's decimals as the registry knew them when it was found (null when unknown);
 * - `transaction_senders`: the addresses that paid the deposit address in it (Bitcoin: the
 *   transaction's input addresses; EVM: its sender, or the token transfer's `from`).
 *
 * Written by the chain watcher with each check of a transaction in a block; a reopening and an
 * officer's decision leave them as they are, so the finding stays on the record.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aopd_proof
      ADD COLUMN block_hash text,
      ADD COLUMN amount_received numeric(78, 0),
      ADD COLUMN amount_received_units text,
      ADD COLUMN transaction_senders text[],
      ADD CONSTRAINT aopd_proof_chain_finding_kind CHECK (
        kind = 'satoshi' OR (block_hash IS NULL AND amount_received IS NULL AND amount_received_units IS NULL AND transaction_senders IS NULL)
      )
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aopd_proof
      DROP CONSTRAINT aopd_proof_chain_finding_kind,
      DROP COLUMN block_hash,
      DROP COLUMN amount_received,
      DROP COLUMN amount_received_units,
      DROP COLUMN transaction_senders
  `.execute(db);
}

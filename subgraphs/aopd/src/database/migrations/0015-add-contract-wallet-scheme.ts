import { sql, type Kysely } from "kysely";

/**
 * ERC-1271 on the record: a signature proof verified by a smart-contract wallet's
 * `isValidSignature` keeps the scheme `erc1271` and the block at which the contract accepted it
 * (`contract_check_block_height`), so an officer sees how control was proven and can repeat the
 * check at that block.
 *
 * A column of its own rather than `block_height`: that one is the Satoshi proof's block holding
 * its test transaction (exported, read by the chain watcher); one column with two meanings by kind
 * would let either reader mistake the other's value. Proofs verified by a contract before this
 * migration were stored with a null scheme and the block in `block_height`; they are moved over.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aopd_proof
      DROP CONSTRAINT aopd_proof_signature_scheme_check,
      ADD CONSTRAINT aopd_proof_signature_scheme_check CHECK (signature_scheme IN ('legacy', 'bip322-simple', 'eip191', 'ed25519', 'tip191', 'erc1271')),
      ADD COLUMN contract_check_block_height bigint
  `.execute(db);
  await sql`
    UPDATE aopd_proof
       SET signature_scheme = 'erc1271', contract_check_block_height = block_height, block_height = NULL
     WHERE kind = 'signature' AND status = 'VERIFIED' AND signature_scheme IS NULL AND block_height IS NOT NULL
  `.execute(db);
  await sql`
    ALTER TABLE aopd_proof
      ADD CONSTRAINT aopd_proof_contract_check_block CHECK ((signature_scheme IS NOT DISTINCT FROM 'erc1271') = (contract_check_block_height IS NOT NULL))
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    UPDATE aopd_proof SET signature_scheme = NULL, block_height = contract_check_block_height WHERE signature_scheme = 'erc1271'
  `.execute(db);
  await sql`
    ALTER TABLE aopd_proof
      DROP CONSTRAINT aopd_proof_contract_check_block,
      DROP COLUMN contract_check_block_height,
      DROP CONSTRAINT aopd_proof_signature_scheme_check,
      ADD CONSTRAINT aopd_proof_signature_scheme_check CHECK (signature_scheme IN ('legacy', 'bip322-simple', 'eip191', 'ed25519', 'tip191'))
  `.execute(db);
}

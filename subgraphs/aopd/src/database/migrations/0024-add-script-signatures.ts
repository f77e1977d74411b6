import { sql, type Kysely } from "kysely";

/**
 * Multisig vaults and Taproot script leaves on the record (issue 39): a signature proof verified
 * by a BIP-322 signature that spends a script keeps the scheme `bip322-script`, one verified from a
 * signed PSBT keeps `psbt`, and both keep what was spent in `signature_script`: the template
 * (`multi`, `sortedmulti`, `pk`, `multi_a`), its threshold, its number of keys and the keys whose
 * signatures were verified. An officer sees which of a vault's keys signed, not only that it did.
 *
 * The script is set exactly for those two schemes, so a reader never meets signers without the
 * scheme that produced them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aopd_proof
      DROP CONSTRAINT aopd_proof_signature_scheme_check,
      ADD CONSTRAINT aopd_proof_signature_scheme_check
        CHECK (signature_scheme IN ('legacy', 'bip322-simple', 'bip322-script', 'psbt', 'eip191', 'ed25519', 'tip191', 'erc1271')),
      ADD COLUMN signature_script jsonb,
      ADD CONSTRAINT aopd_proof_signature_script
        CHECK (COALESCE(signature_scheme IN ('bip322-script', 'psbt'), false) = (signature_script IS NOT NULL))
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    UPDATE aopd_proof SET signature_scheme = NULL WHERE signature_scheme IN ('bip322-script', 'psbt')
  `.execute(db);
  await sql`
    ALTER TABLE aopd_proof
      DROP CONSTRAINT aopd_proof_signature_script,
      DROP COLUMN signature_script,
      DROP CONSTRAINT aopd_proof_signature_scheme_check,
      ADD CONSTRAINT aopd_proof_signature_scheme_check CHECK (signature_scheme IN ('legacy', 'bip322-simple', 'eip191', 'ed25519', 'tip191', 'erc1271'))
  `.execute(db);
}

import { sql, type Kysely } from "kysely";

/**
 * A PSBT signed by a single key (a P2WPKH or P2SH-P2WPKH wallet, a Taproot key path) spends no
 * script, so it has no `signature_script` to keep; migration 0024 required one for every `psbt`
 * proof, and such a proof's verified signature could not be written (the wallet was answered
 * 503). Now `bip322-script` still needs its script, `psbt` keeps one exactly when it spent a script
 * (a vault, a Taproot leaf), and no other scheme has one.
 * This file keeps its SQL as it was written (a test pins its text): a later change is a new migration.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aopd_proof
      DROP CONSTRAINT aopd_proof_signature_script,
      ADD CONSTRAINT aopd_proof_signature_script CHECK (
        signature_scheme IS NOT DISTINCT FROM 'psbt' OR COALESCE(signature_scheme = 'bip322-script', false) = (signature_script IS NOT NULL)
      )
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  // A single key's PSBT proves what its BIP-322 simple signature proves (the same witness): recorded as that, the older rule holds.
  await sql`
    UPDATE aopd_proof SET signature_scheme = 'bip322-simple' WHERE signature_scheme = 'psbt' AND signature_script IS NULL
  `.execute(db);
  await sql`
    ALTER TABLE aopd_proof
      DROP CONSTRAINT aopd_proof_signature_script,
      ADD CONSTRAINT aopd_proof_signature_script CHECK (COALESCE(signature_scheme IN ('bip322-script', 'psbt'), false) = (signature_script IS NOT NULL))
  `.execute(db);
}

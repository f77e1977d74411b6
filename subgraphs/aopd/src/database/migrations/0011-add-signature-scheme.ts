import { sql, type Kysely } from "kysely";

/**
 * Evidence recorded: a verified signature proof keeps the scheme its signature was verified with
 * (`signature_scheme`), so that the record says how control was proven, not only that it was.
 * Null until verified, and on proofs verified before this migration (the scheme was not kept).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aopd_proof
      ADD COLUMN signature_scheme text CHECK (signature_scheme IN ('legacy', 'bip322-simple', 'eip191', 'ed25519', 'tip191')),
      ADD CONSTRAINT aopd_proof_signature_scheme_kind CHECK (signature_scheme IS NULL OR (kind = 'signature' AND status = 'VERIFIED'))
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE aopd_proof DROP CONSTRAINT aopd_proof_signature_scheme_kind, DROP COLUMN signature_scheme`.execute(db);
}

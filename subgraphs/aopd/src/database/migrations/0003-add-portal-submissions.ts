import { sql, type Kysely } from "kysely";

/**
 * The customer portal:
 * - a signature proof may be requested without an expected address (AOPP lets the wallet pick it);
 *   its address stays null until a verified signature names it, so a VERIFIED, SUBMITTED or FAILED
 *   proof and every Satoshi proof still have one (the CHECK);
 * - `signature_attempts` counts the signature submissions a pending proof has taken in (each is
 *   counted before its verification starts; the one that verifies ends the proof), in the database,
 *   so the cap on failed attempts holds across replicas and restarts.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE aopd_proof ALTER COLUMN address DROP NOT NULL`.execute(db);
  await sql`
    ALTER TABLE aopd_proof ADD CONSTRAINT aopd_proof_address_named
    CHECK (address IS NOT NULL OR (kind = 'signature' AND status IN ('PENDING', 'EXPIRED')))
  `.execute(db);
  await sql`ALTER TABLE aopd_proof ADD COLUMN signature_attempts integer NOT NULL DEFAULT 0 CHECK (signature_attempts >= 0)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE aopd_proof DROP COLUMN signature_attempts`.execute(db);
  await sql`ALTER TABLE aopd_proof DROP CONSTRAINT aopd_proof_address_named`.execute(db);
  await sql`DELETE FROM aopd_proof WHERE address IS NULL`.execute(db);
  await sql`ALTER TABLE aopd_proof ALTER COLUMN address SET NOT NULL`.execute(db);
}

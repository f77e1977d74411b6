import { sql, type Kysely } from "kysely";

/**
 * Receipts that can be withdrawn (docs/receipts.md, "Status"): a signed receipt cannot be unsigned,
 * so each one issued is recorded, and its status is public.
 *
 * - `aopd_receipt`: one row per receipt issued (`id` is its `jti`), with the proof, when it was
 *   issued and until when it is valid, the screening it stated, and once revoked when and why.
 * - `aopd_revoke_receipts`: revocation cannot depend on each write path remembering it, so a
 *   trigger on the proof row revokes the proof's receipts in the statement that takes back what
 *   they state: the proof leaves VERIFIED (`reopened`: reopening, expiry, any status change), its
 *   decision in force changes (`decided_again`), or its address becomes LISTED on the list or at
 *   the provider (`screening_listed`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE aopd_receipt (
      id uuid PRIMARY KEY,
      proof_id uuid NOT NULL REFERENCES aopd_proof (id) ON DELETE CASCADE,
      issued_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      screening_status text NOT NULL CHECK (screening_status IN ('CLEAR', 'LISTED', 'NOT_SCREENED')),
      revoked_at timestamptz,
      revoked_reason text CHECK (revoked_reason IN ('reopened', 'decided_again', 'screening_listed')),
      CHECK ((revoked_at IS NULL) = (revoked_reason IS NULL))
    )
  `.execute(db);
  await sql`CREATE INDEX aopd_receipt_in_force ON aopd_receipt (proof_id) WHERE revoked_at IS NULL`.execute(db);
  await sql`
    CREATE FUNCTION aopd_revoke_receipts() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      why text;
    BEGIN
      IF OLD.status = 'VERIFIED' AND NEW.status <> 'VERIFIED' THEN
        why := 'reopened';
      ELSIF NEW.decision_id IS DISTINCT FROM OLD.decision_id THEN
        why := 'decided_again';
      ELSIF (NEW.screening_status = 'LISTED' AND OLD.screening_status IS DISTINCT FROM 'LISTED')
         OR (NEW.provider_screening_status = 'LISTED' AND OLD.provider_screening_status IS DISTINCT FROM 'LISTED') THEN
        why := 'screening_listed';
      ELSE
        RETURN NULL;
      END IF;
      UPDATE aopd_receipt SET revoked_at = now(), revoked_reason = why WHERE proof_id = NEW.id AND revoked_at IS NULL;
      RETURN NULL;
    END $$
  `.execute(db);
  await sql`
    CREATE TRIGGER aopd_proof_revokes_receipts AFTER UPDATE OF status, decision_id, screening_status, provider_screening_status ON aopd_proof
    FOR EACH ROW EXECUTE FUNCTION aopd_revoke_receipts()
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER aopd_proof_revokes_receipts ON aopd_proof`.execute(db);
  await sql`DROP FUNCTION aopd_revoke_receipts()`.execute(db);
  await sql`DROP TABLE aopd_receipt`.execute(db);
}

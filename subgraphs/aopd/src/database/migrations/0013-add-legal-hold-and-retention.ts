import { sql, type Kysely } from "kysely";

/**
 * Retention and legal hold (docs/audit-trail.md, "Retention").
 *
 * - `aopd_proof.legal_hold_since` / `legal_hold_reason`: a proof on legal hold is kept past its
 *   retention; set and lifted by `placeLegalHold` / `liftLegalHold`, both on the audit trail.
 * - `aopd_record_retention` is the one row naming the retention in force
 *   (`AOPD_RECORD_RETENTION_YEARS`, written by each replica at start-up). The product deletes no
 *   proof and no media today; the triggers below make that a property of the database rather than
 *   of today's code: a DELETE of a proof (or of a proof's media chunk) whose last change is within
 *   retention, or that is on legal hold, is refused for every role, whatever code path issues it.
 *   The audit trail refuses every DELETE already (migration 0012).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aopd_proof
      ADD COLUMN legal_hold_since timestamptz(3),
      ADD COLUMN legal_hold_reason text COLLATE "C",
      ADD CONSTRAINT aopd_proof_legal_hold CHECK ((legal_hold_since IS NULL) = (legal_hold_reason IS NULL))
  `.execute(db);
  await sql`
    CREATE TABLE aopd_record_retention (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      years integer NOT NULL CHECK (years >= 1)
    )
  `.execute(db);
  await sql`INSERT INTO aopd_record_retention (years) VALUES (5)`.execute(db);
  await sql`
    CREATE FUNCTION aopd_refuse_early_proof_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      kept_years integer;
    BEGIN
      SELECT years INTO kept_years FROM aopd_record_retention;
      IF OLD.legal_hold_since IS NOT NULL THEN
        RAISE EXCEPTION 'proof % is on legal hold: DELETE refused', OLD.id USING ERRCODE = 'insufficient_privilege';
      END IF;
      IF OLD.updated_at > now() - make_interval(years => kept_years) THEN
        RAISE EXCEPTION 'proof % is within its retention of % years: DELETE refused', OLD.id, kept_years USING ERRCODE = 'insufficient_privilege';
      END IF;
      RETURN OLD;
    END
    $$
  `.execute(db);
  await sql`CREATE TRIGGER aopd_proof_retention BEFORE DELETE ON aopd_proof FOR EACH ROW EXECUTE FUNCTION aopd_refuse_early_proof_delete()`.execute(db);
  await sql`
    CREATE FUNCTION aopd_refuse_early_media_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      kept_years integer;
      proof record;
    BEGIN
      SELECT years INTO kept_years FROM aopd_record_retention;
      SELECT id, updated_at, legal_hold_since INTO proof FROM aopd_proof WHERE id = OLD.proof_id;
      IF FOUND AND (proof.legal_hold_since IS NOT NULL OR proof.updated_at > now() - make_interval(years => kept_years)) THEN
        RAISE EXCEPTION 'the media of proof % is within its retention or on legal hold: DELETE refused', OLD.proof_id USING ERRCODE = 'insufficient_privilege';
      END IF;
      RETURN OLD;
    END
    $$
  `.execute(db);
  await sql`CREATE TRIGGER aopd_proof_media_retention BEFORE DELETE ON aopd_proof_media_chunk FOR EACH ROW EXECUTE FUNCTION aopd_refuse_early_media_delete()`.execute(db);
  await sql`CREATE TRIGGER aopd_proof_no_truncate BEFORE TRUNCATE ON aopd_proof FOR EACH STATEMENT EXECUTE FUNCTION aopd_refuse_change()`.execute(db);
  await sql`CREATE TRIGGER aopd_proof_media_no_truncate BEFORE TRUNCATE ON aopd_proof_media_chunk FOR EACH STATEMENT EXECUTE FUNCTION aopd_refuse_change()`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER aopd_proof_media_no_truncate ON aopd_proof_media_chunk`.execute(db);
  await sql`DROP TRIGGER aopd_proof_no_truncate ON aopd_proof`.execute(db);
  await sql`DROP TRIGGER aopd_proof_media_retention ON aopd_proof_media_chunk`.execute(db);
  await sql`DROP FUNCTION aopd_refuse_early_media_delete()`.execute(db);
  await sql`DROP TRIGGER aopd_proof_retention ON aopd_proof`.execute(db);
  await sql`DROP FUNCTION aopd_refuse_early_proof_delete()`.execute(db);
  await sql`DROP TABLE aopd_record_retention`.execute(db);
  await sql`ALTER TABLE aopd_proof DROP CONSTRAINT aopd_proof_legal_hold, DROP COLUMN legal_hold_since, DROP COLUMN legal_hold_reason`.execute(db);
}

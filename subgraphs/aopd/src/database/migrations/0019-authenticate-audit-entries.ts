import { sql, type Kysely } from "kysely";

/**
 * Audit entries only aopd can write (docs/audit-transparency.md, "Entries only aopd can write"):
 *
 * - `auth_key_id`, `auth_nonce`, `auth_mac`: each entry is authenticated when aopd appends it, by
 *   HMAC-SHA-256 under `AOPD_AUDIT_KEY` (a key the database does not hold) over its content, its
 *   time and a fresh nonce (audit/audit-entry-authentication.ts). All three or none: entries
 *   chained before this migration have none and stay as they were. The nonce is unique, so a copy
 *   of a genuine row is refused at INSERT.
 * - `aopd_audit_set_aside`: entries the sequencer refused to chain because their authentication
 *   failed (an INSERT by someone other than aopd), with the reason; append-only like the trail.
 *   A set-aside entry keeps `seq` null forever and `npm run verify-audit` names it.
 * - The chain-once trigger of 0018 compares every content column: the new ones join the comparison.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aopd_audit_entry
      ADD COLUMN auth_key_id text COLLATE "C",
      ADD COLUMN auth_nonce text COLLATE "C",
      ADD COLUMN auth_mac text COLLATE "C",
      ADD CONSTRAINT aopd_audit_entry_authenticated_whole CHECK ((auth_key_id IS NULL) = (auth_mac IS NULL) AND (auth_nonce IS NULL) = (auth_mac IS NULL))
  `.execute(db);
  await sql`CREATE UNIQUE INDEX aopd_audit_entry_nonce_key ON aopd_audit_entry (auth_nonce)`.execute(db);
  await sql`
    CREATE TABLE aopd_audit_set_aside (
      insertion bigint PRIMARY KEY,
      set_aside_at timestamptz(3) NOT NULL DEFAULT now(),
      reason text COLLATE "C" NOT NULL
    )
  `.execute(db);
  await sql`CREATE TRIGGER aopd_audit_set_aside_append_only BEFORE UPDATE OR DELETE ON aopd_audit_set_aside FOR EACH ROW EXECUTE FUNCTION aopd_refuse_change()`.execute(db);
  await sql`CREATE TRIGGER aopd_audit_set_aside_no_truncate BEFORE TRUNCATE ON aopd_audit_set_aside FOR EACH STATEMENT EXECUTE FUNCTION aopd_refuse_change()`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION aopd_audit_entry_chain_once() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND OLD.seq IS NULL AND NEW.seq IS NOT NULL
         AND (NEW.insertion, NEW.occurred_at, NEW.action, NEW.proof_id, NEW.actor_subject, NEW.actor_client, NEW.actor_username,
              NEW.actor_system, NEW.request_id, NEW.trace_id, NEW.details, NEW.auth_key_id, NEW.auth_nonce, NEW.auth_mac)
             IS NOT DISTINCT FROM (OLD.insertion, OLD.occurred_at, OLD.action, OLD.proof_id, OLD.actor_subject, OLD.actor_client,
              OLD.actor_username, OLD.actor_system, OLD.request_id, OLD.trace_id, OLD.details, OLD.auth_key_id, OLD.auth_nonce, OLD.auth_mac) THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION '% is append-only: % refused (an entry is only chained, once)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
    END
    $$
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION aopd_audit_entry_chain_once() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND OLD.seq IS NULL AND NEW.seq IS NOT NULL
         AND (NEW.insertion, NEW.occurred_at, NEW.action, NEW.proof_id, NEW.actor_subject, NEW.actor_client, NEW.actor_username,
              NEW.actor_system, NEW.request_id, NEW.trace_id, NEW.details)
             IS NOT DISTINCT FROM (OLD.insertion, OLD.occurred_at, OLD.action, OLD.proof_id, OLD.actor_subject, OLD.actor_client,
              OLD.actor_username, OLD.actor_system, OLD.request_id, OLD.trace_id, OLD.details) THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION '% is append-only: % refused (an entry is only chained, once)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
    END
    $$
  `.execute(db);
  await sql`DROP TABLE aopd_audit_set_aside`.execute(db);
  await sql`DROP INDEX aopd_audit_entry_nonce_key`.execute(db);
  await sql`ALTER TABLE aopd_audit_entry DROP CONSTRAINT aopd_audit_entry_authenticated_whole, DROP COLUMN auth_key_id, DROP COLUMN auth_nonce, DROP COLUMN auth_mac`.execute(db);
}

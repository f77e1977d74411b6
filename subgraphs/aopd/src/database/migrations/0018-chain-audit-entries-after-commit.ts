import { sql, type Kysely } from "kysely";

/**
 * The audit trail's entries are chained after they commit instead of in the writer's transaction
 * (audit/chain-audit-entries.ts says why):
 *
 * - `insertion` (an identity) names every entry from its insertion on and orders the entries still
 *   waiting for their place; it becomes the key, since `seq`, `previous_hash` and `hash` are null
 *   until the sequencer chains the entry (all three set, or none: a check).
 * - The append-only trigger of 0012 refused every UPDATE; chaining needs exactly one: setting the
 *   three chain columns of an unchained entry, changing nothing else. `aopd_audit_entry_chain_once`
 *   allows that one (its content columns compared one by one: a column added later must be added to
 *   the comparison) and refuses every other UPDATE (a chained entry is never touched again), every
 *   DELETE and TRUNCATE, as before.
 * - A statement-level trigger announces inserts on `aopd_audit_writes` (a wake-up for the
 *   sequencer, coalesced per transaction by PostgreSQL; a lost one delays, the sweep catches up).
 * - Entries chained before this migration keep their `seq` and hash: the hash's definition is
 *   unchanged, `npm run verify-audit` checks old and new entries alike.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE aopd_audit_entry ADD COLUMN insertion bigint GENERATED ALWAYS AS IDENTITY`.execute(db);
  await sql`ALTER TABLE aopd_audit_entry DROP CONSTRAINT aopd_audit_entry_pkey`.execute(db);
  await sql`ALTER TABLE aopd_audit_entry ADD PRIMARY KEY (insertion)`.execute(db);
  await sql`ALTER TABLE aopd_audit_entry ALTER COLUMN seq DROP NOT NULL, ALTER COLUMN previous_hash DROP NOT NULL, ALTER COLUMN hash DROP NOT NULL`.execute(db);
  await sql`ALTER TABLE aopd_audit_entry ADD CONSTRAINT aopd_audit_entry_seq_key UNIQUE (seq)`.execute(db);
  await sql`
    ALTER TABLE aopd_audit_entry ADD CONSTRAINT aopd_audit_entry_chained_whole
    CHECK ((seq IS NULL) = (hash IS NULL) AND (seq IS NULL) = (previous_hash IS NULL))
  `.execute(db);
  await sql`CREATE INDEX aopd_audit_entry_unchained_idx ON aopd_audit_entry (insertion) WHERE seq IS NULL`.execute(db);

  await sql`DROP TRIGGER aopd_audit_entry_append_only ON aopd_audit_entry`.execute(db);
  await sql`
    CREATE FUNCTION aopd_audit_entry_chain_once() RETURNS trigger LANGUAGE plpgsql AS $$
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
  await sql`
    CREATE TRIGGER aopd_audit_entry_append_only BEFORE UPDATE OR DELETE ON aopd_audit_entry
    FOR EACH ROW EXECUTE FUNCTION aopd_audit_entry_chain_once()
  `.execute(db);
  await sql`
    CREATE FUNCTION aopd_announce_audit_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('aopd_audit_writes', '');
      RETURN NULL;
    END
    $$
  `.execute(db);
  await sql`
    CREATE TRIGGER aopd_audit_entry_announced AFTER INSERT ON aopd_audit_entry
    FOR EACH STATEMENT EXECUTE FUNCTION aopd_announce_audit_write()
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER aopd_audit_entry_announced ON aopd_audit_entry`.execute(db);
  await sql`DROP FUNCTION aopd_announce_audit_write()`.execute(db);
  await sql`DROP TRIGGER aopd_audit_entry_append_only ON aopd_audit_entry`.execute(db);
  await sql`DROP FUNCTION aopd_audit_entry_chain_once()`.execute(db);
  await sql`
    CREATE TRIGGER aopd_audit_entry_append_only BEFORE UPDATE OR DELETE ON aopd_audit_entry
    FOR EACH ROW EXECUTE FUNCTION aopd_refuse_change()
  `.execute(db);
  await sql`DROP INDEX aopd_audit_entry_unchained_idx`.execute(db);
  await sql`ALTER TABLE aopd_audit_entry DROP CONSTRAINT aopd_audit_entry_chained_whole`.execute(db);
  await sql`ALTER TABLE aopd_audit_entry DROP CONSTRAINT aopd_audit_entry_seq_key`.execute(db);
  await sql`ALTER TABLE aopd_audit_entry DROP CONSTRAINT aopd_audit_entry_pkey`.execute(db);
  await sql`ALTER TABLE aopd_audit_entry ALTER COLUMN seq SET NOT NULL, ALTER COLUMN previous_hash SET NOT NULL, ALTER COLUMN hash SET NOT NULL`.execute(db);
  await sql`ALTER TABLE aopd_audit_entry ADD PRIMARY KEY (seq)`.execute(db);
  await sql`ALTER TABLE aopd_audit_entry DROP COLUMN insertion`.execute(db);
}

import { sql, type Kysely } from "kysely";

/**
 * The audit trail: every action on a proof (and every export of the trail or of proofs), by a
 * person or by aopd itself, one row each, chained by hashes (see audit/append-audit-entry.ts).
 *
 * - `aopd_audit_entry` rows are never changed: the trigger of migration 0009 (`aopd_refuse_change`)
 *   refuses UPDATE, DELETE and TRUNCATE for every role the application uses, since tests and
 *   `npm start` run as one role that also owns the tables (so a withheld grant would not hold).
 * - `seq` is gap-free and given under the chain head's row lock, in the order entries commit
 *   their place in the chain; `hash` covers the entry's content and `previous_hash`, so an edited,
 *   deleted or reordered row breaks the chain at that row (`npm run verify-audit` names it).
 * - `aopd_audit_head` is the chain's one head row: the last `seq` and `hash`. Locking it
 *   (`FOR UPDATE`) is what keeps the appends of several replicas one chain.
 * - `details` is the canonical JSON the hash was computed over, kept as text so that what is
 *   verified is byte for byte what was hashed (jsonb would reorder keys and respell numbers).
 * - `proof_id` has no foreign key: an entry outlives nothing it names, and exports name no proof.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE aopd_audit_entry (
      seq bigint PRIMARY KEY CHECK (seq > 0),
      occurred_at timestamptz(3) NOT NULL,
      action text COLLATE "C" NOT NULL CHECK (action ~ '^[A-Z][A-Z_]*$'),
      proof_id uuid,
      actor_subject text COLLATE "C" NOT NULL CHECK (actor_subject <> ''),
      actor_client text COLLATE "C" NOT NULL,
      actor_username text COLLATE "C",
      actor_system boolean NOT NULL,
      request_id text COLLATE "C",
      trace_id text COLLATE "C",
      details text COLLATE "C" NOT NULL,
      previous_hash text COLLATE "C" NOT NULL CHECK (previous_hash ~ '^[0-9a-f]{64}$'),
      hash text COLLATE "C" NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$')
    )
  `.execute(db);
  await sql`CREATE INDEX aopd_audit_entry_proof_idx ON aopd_audit_entry (proof_id, seq) WHERE proof_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX aopd_audit_entry_time_idx ON aopd_audit_entry (occurred_at, seq)`.execute(db);
  await sql`CREATE INDEX aopd_audit_entry_actor_idx ON aopd_audit_entry (actor_subject, seq)`.execute(db);
  await sql`CREATE INDEX aopd_audit_entry_action_idx ON aopd_audit_entry (action, seq)`.execute(db);
  await sql`
    CREATE TRIGGER aopd_audit_entry_append_only BEFORE UPDATE OR DELETE ON aopd_audit_entry
    FOR EACH ROW EXECUTE FUNCTION aopd_refuse_change()
  `.execute(db);
  await sql`CREATE TRIGGER aopd_audit_entry_no_truncate BEFORE TRUNCATE ON aopd_audit_entry FOR EACH STATEMENT EXECUTE FUNCTION aopd_refuse_change()`.execute(db);
  await sql`
    CREATE TABLE aopd_audit_head (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      seq bigint NOT NULL,
      hash text COLLATE "C" NOT NULL
    )
  `.execute(db);
  await sql`INSERT INTO aopd_audit_head (seq, hash) VALUES (0, ${"0".repeat(64)})`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE aopd_audit_head`.execute(db);
  await sql`DROP TABLE aopd_audit_entry`.execute(db);
}

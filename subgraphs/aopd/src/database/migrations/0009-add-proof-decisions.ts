import { sql, type Kysely } from "kysely";

/**
 * Decisions on the record: who decided a Satoshi or media proof VERIFIED or FAILED, when and why.
 *
 * - `aopd_proof_decision` holds every decision and every reopening, one row each, in the order
 *   they were made (`recorded`). Rows are never changed: a trigger refuses UPDATE and DELETE, so a
 *   correction is a reopening followed by a new decision, and the earlier decision stays readable.
 *   The foreign key has no cascade: a proof with decisions cannot be deleted.
 * - The proof row carries a copy of the decision in force (`decision_id` and the `decision_*` and
 *   `decider_*` columns), null while undecided and after a reopening. The copy is what the filter,
 *   the sort, the export and the event log (`to_jsonb` of the row, migration 0004) read without a
 *   join; the table is the history. Both are written in one transaction (decide-proof.ts).
 * - The decider is named as the internal identity token names the caller (subject, client,
 *   username when the token has one); `decider_system` marks decisions of aopd itself (the chain
 *   watcher), whose subject is `system:<part>`.
 * - Proofs assessed before this migration keep their `assessment` and have no decision row: who
 *   made them was never recorded.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE aopd_proof_decision (
      id uuid PRIMARY KEY,
      recorded bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
      proof_id uuid NOT NULL REFERENCES aopd_proof (id),
      action text NOT NULL CHECK (action IN ('DECIDED', 'REOPENED')),
      decided_at timestamptz(3) NOT NULL DEFAULT now(),
      outcome text CHECK (outcome IN ('VERIFIED', 'FAILED')),
      reason text COLLATE "C",
      reason_text text COLLATE "C",
      comment text COLLATE "C",
      decider_subject text COLLATE "C" NOT NULL CHECK (decider_subject <> ''),
      decider_client text COLLATE "C" NOT NULL,
      decider_username text COLLATE "C",
      decider_system boolean NOT NULL,
      CONSTRAINT aopd_proof_decision_outcome CHECK ((action = 'DECIDED') = (outcome IS NOT NULL)),
      CONSTRAINT aopd_proof_decision_failure_reason CHECK (outcome IS DISTINCT FROM 'FAILED' OR reason IS NOT NULL)
    )
  `.execute(db);
  await sql`CREATE INDEX aopd_proof_decision_proof_idx ON aopd_proof_decision (proof_id, recorded)`.execute(db);
  await sql`
    CREATE FUNCTION aopd_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
    END
    $$
  `.execute(db);
  await sql`
    CREATE TRIGGER aopd_proof_decision_append_only BEFORE UPDATE OR DELETE ON aopd_proof_decision
    FOR EACH ROW EXECUTE FUNCTION aopd_refuse_change()
  `.execute(db);
  await sql`CREATE TRIGGER aopd_proof_decision_no_truncate BEFORE TRUNCATE ON aopd_proof_decision FOR EACH STATEMENT EXECUTE FUNCTION aopd_refuse_change()`.execute(db);
  await sql`
    ALTER TABLE aopd_proof
      ADD COLUMN decision_id uuid,
      ADD COLUMN decided_at timestamptz(3),
      ADD COLUMN decision_reason text COLLATE "C",
      ADD COLUMN decision_reason_text text COLLATE "C",
      ADD COLUMN decision_comment text COLLATE "C",
      ADD COLUMN decider_subject text COLLATE "C",
      ADD COLUMN decider_client text COLLATE "C",
      ADD COLUMN decider_username text COLLATE "C",
      ADD COLUMN decider_system boolean,
      ADD CONSTRAINT aopd_proof_decision_columns CHECK (
        (decision_id IS NULL AND decided_at IS NULL AND decider_subject IS NULL AND decider_client IS NULL AND decider_system IS NULL
          AND decision_reason IS NULL AND decision_reason_text IS NULL AND decision_comment IS NULL AND decider_username IS NULL)
        OR (decision_id IS NOT NULL AND decided_at IS NOT NULL AND decider_subject IS NOT NULL AND decider_client IS NOT NULL AND decider_system IS NOT NULL
          AND status IN ('VERIFIED', 'FAILED'))
      )
  `.execute(db);
  await sql`CREATE INDEX aopd_proof_decided_idx ON aopd_proof (decided_at, id) WHERE decision_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX aopd_proof_decider_subject_idx ON aopd_proof (decider_subject, decided_at, id) WHERE decision_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX aopd_proof_decider_username_idx ON aopd_proof (decider_username, decided_at, id) WHERE decision_id IS NOT NULL`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aopd_proof
      DROP CONSTRAINT aopd_proof_decision_columns,
      DROP COLUMN decision_id, DROP COLUMN decided_at, DROP COLUMN decision_reason, DROP COLUMN decision_reason_text, DROP COLUMN decision_comment,
      DROP COLUMN decider_subject, DROP COLUMN decider_client, DROP COLUMN decider_username, DROP COLUMN decider_system
  `.execute(db);
  await sql`DROP TABLE aopd_proof_decision`.execute(db);
  await sql`DROP FUNCTION aopd_refuse_change()`.execute(db);
}

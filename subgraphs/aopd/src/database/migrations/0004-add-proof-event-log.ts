import { sql, type Kysely } from "kysely";

/**
 * The proof event log: every proof creation and status change, kept for replay: its tables, the
 * trigger that records each change and the function that numbers the events (the database half of
 * the event pump; the process half is `startProofEventPump`). This file keeps its SQL as it was
 * written (a test pins its text): a later change is a new migration.
 *
 * - The trigger appends the event in the transaction that makes the change, so no write path can
 *   forget one and a rolled-back change leaves none. The event keeps the proof as that change left
 *   it (`to_jsonb` of the row, without the credential hash): a replayed VERIFIED event shows the
 *   proof VERIFIED even if it changed since, and a filter matches it as it was then.
 * - Writers do not number events. A sequence value taken inside a transaction says nothing about
 *   commit order: a writer that took 11 can commit before the one that took 10, and a reader that
 *   delivered 11 would never see 10. Instead `aopd_sequence_proof_events` numbers committed events
 *   after the fact, under the log row's lock: each call sees every event committed before it got
 *   the lock and numbers them after everything numbered before, so positions become visible as a
 *   gapless prefix (1..N) and a reader that delivered N can never be handed a smaller one later.
 *   Writers stay concurrent; only the numbering (one short statement, any replica) is serialized.
 * - NOTIFY is only a wake-up: `aopd_proof_writes` tells the replicas to number, `aopd_proof_events`
 *   (payload: the last position) tells them to read. A lost notification delays, never loses.
 * - `aopd.record_events = off` (set by the demo seeder for its own transaction) writes no events:
 *   seeded rows are not changes anybody subscribed to.
 *
 * Migration 0016 makes a screening change an event too (and its `down` restores this trigger).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE aopd_proof_event (
      insertion bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      position bigint UNIQUE,
      change text NOT NULL CHECK (change IN ('CREATED', 'STATUS_CHANGED')),
      recorded_at timestamptz NOT NULL DEFAULT now(),
      sequenced_at timestamptz,
      proof jsonb NOT NULL
    )
  `.execute(db);
  await sql`CREATE INDEX aopd_proof_event_unsequenced ON aopd_proof_event (insertion) WHERE position IS NULL`.execute(db);
  await sql`
    CREATE TABLE aopd_proof_event_log (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      sequenced_through bigint NOT NULL,
      pruned_through bigint NOT NULL
    )
  `.execute(db);
  await sql`INSERT INTO aopd_proof_event_log (sequenced_through, pruned_through) VALUES (0, 0)`.execute(db);

  await createRecordProofEventTrigger(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await dropRecordProofEventTrigger(db);
  await sql`DROP TABLE aopd_proof_event_log`.execute(db);
  await sql`DROP TABLE aopd_proof_event`.execute(db);
}

/** The trigger and the numbering function, as this migration creates them (migration 0016's `down` creates them again). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createRecordProofEventTrigger(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION aopd_record_proof_event() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF current_setting('aopd.record_events', true) = 'off' THEN
        RETURN NULL;
      END IF;
      INSERT INTO aopd_proof_event (change, proof)
      VALUES (CASE TG_OP WHEN 'INSERT' THEN 'CREATED' ELSE 'STATUS_CHANGED' END, to_jsonb(NEW) - 'callback_token_hash');
      PERFORM pg_notify('aopd_proof_writes', '');
      RETURN NULL;
    END
    $$
  `.execute(db);
  await sql`
    CREATE TRIGGER aopd_proof_created AFTER INSERT ON aopd_proof
    FOR EACH ROW EXECUTE FUNCTION aopd_record_proof_event()
  `.execute(db);
  await sql`
    CREATE TRIGGER aopd_proof_status_changed AFTER UPDATE OF status ON aopd_proof
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION aopd_record_proof_event()
  `.execute(db);

  // Numbers up to max_events committed events in insertion order (so one proof's events keep
  // their order: a later change of a proof can only be written after the earlier one committed)
  // and returns how many it numbered. READ COMMITTED: the statement after the lock sees every
  // event committed before the lock was granted, including the positions of the previous call.
  await sql`
    CREATE FUNCTION aopd_sequence_proof_events(max_events integer) RETURNS integer LANGUAGE plpgsql AS $$
    DECLARE
      base bigint;
      numbered integer;
    BEGIN
      SELECT sequenced_through INTO base FROM aopd_proof_event_log FOR UPDATE;
      UPDATE aopd_proof_event AS e
      SET position = base + batch.n, sequenced_at = clock_timestamp()
      FROM (
        SELECT insertion, row_number() OVER (ORDER BY insertion) AS n
        FROM aopd_proof_event
        WHERE position IS NULL
        ORDER BY insertion
        LIMIT max_events
      ) AS batch
      WHERE e.insertion = batch.insertion;
      GET DIAGNOSTICS numbered = ROW_COUNT;
      IF numbered > 0 THEN
        UPDATE aopd_proof_event_log SET sequenced_through = base + numbered;
        PERFORM pg_notify('aopd_proof_events', (base + numbered)::text);
      END IF;
      RETURN numbered;
    END
    $$
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function dropRecordProofEventTrigger(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER aopd_proof_status_changed ON aopd_proof`.execute(db);
  await sql`DROP TRIGGER aopd_proof_created ON aopd_proof`.execute(db);
  await sql`DROP FUNCTION aopd_sequence_proof_events(integer)`.execute(db);
  await sql`DROP FUNCTION aopd_record_proof_event()`.execute(db);
}

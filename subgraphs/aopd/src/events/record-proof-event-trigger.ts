import { sql, type Kysely } from "kysely";

/**
 * The trigger that records every proof creation and status change in the proof event log, and the
 * function that numbers the recorded events: the database half of the event pump (the process half
 * is `startProofEventPump`). Migration 0004 creates them with exactly this SQL.
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
 * - Screening (migration 0016, `recordScreeningChangesAsEvents` below): a re-screening that lists a
 *   proof's address, or clears one listed before, is an event too (`SCREENING_CHANGED`); a first
 *   screening that finds nothing (`NOT_SCREENED` to `CLEAR`) is not, so the first import over a
 *   million proofs does not flood subscribers with news of nothing.
 *
 * Why the SQL lives here and not only in the migration: a reader looking for what records events
 * finds it by its name. A migration that has run is never changed, so to change this SQL: copy the
 * current text into migration 0004 first (it must keep creating what it always created), then
 * change it here and add a migration that applies it (`CREATE OR REPLACE FUNCTION`).
 */
// Kysely<any>: migrations run against the schema as it is at their point in history.
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

/**
 * Migration 0016: the function above, which names the change of an update by what changed, and
 * the update trigger, which fires for a change of status and for a screening change that involves
 * `LISTED`. When both change in one statement, one event (`STATUS_CHANGED`) carries both.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function recordScreeningChangesAsEvents(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE aopd_proof_event DROP CONSTRAINT aopd_proof_event_change_check`.execute(db);
  await sql`ALTER TABLE aopd_proof_event ADD CONSTRAINT aopd_proof_event_change_check CHECK (change IN ('CREATED', 'STATUS_CHANGED', 'SCREENING_CHANGED'))`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION aopd_record_proof_event() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      change text;
    BEGIN
      IF current_setting('aopd.record_events', true) = 'off' THEN
        RETURN NULL;
      END IF;
      IF TG_OP = 'INSERT' THEN
        change := 'CREATED';
      ELSIF OLD.status IS DISTINCT FROM NEW.status THEN
        change := 'STATUS_CHANGED';
      ELSE
        change := 'SCREENING_CHANGED';
      END IF;
      INSERT INTO aopd_proof_event (change, proof) VALUES (change, to_jsonb(NEW) - 'callback_token_hash');
      PERFORM pg_notify('aopd_proof_writes', '');
      RETURN NULL;
    END
    $$
  `.execute(db);
  await sql`DROP TRIGGER aopd_proof_status_changed ON aopd_proof`.execute(db);
  await sql`
    CREATE TRIGGER aopd_proof_status_changed AFTER UPDATE OF status, screening_status ON aopd_proof
    FOR EACH ROW WHEN (
      OLD.status IS DISTINCT FROM NEW.status
      OR (OLD.screening_status IS DISTINCT FROM NEW.screening_status AND 'LISTED' IN (OLD.screening_status, NEW.screening_status))
    ) EXECUTE FUNCTION aopd_record_proof_event()
  `.execute(db);
}

/** Undoes `recordScreeningChangesAsEvents` (migration 0016's `down`): the trigger and function as migration 0004 made them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function stopRecordingScreeningChanges(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER aopd_proof_status_changed ON aopd_proof`.execute(db);
  await sql`DROP FUNCTION aopd_record_proof_event() CASCADE`.execute(db);
  await sql`DROP TRIGGER IF EXISTS aopd_proof_created ON aopd_proof`.execute(db);
  await sql`DROP FUNCTION aopd_sequence_proof_events(integer)`.execute(db);
  await sql`DELETE FROM aopd_proof_event WHERE change = 'SCREENING_CHANGED'`.execute(db);
  await sql`ALTER TABLE aopd_proof_event DROP CONSTRAINT aopd_proof_event_change_check`.execute(db);
  await sql`ALTER TABLE aopd_proof_event ADD CONSTRAINT aopd_proof_event_change_check CHECK (change IN ('CREATED', 'STATUS_CHANGED'))`.execute(db);
  await createRecordProofEventTrigger(db);
}

/** Undoes `createRecordProofEventTrigger` (migration 0004's `down`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function dropRecordProofEventTrigger(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER aopd_proof_status_changed ON aopd_proof`.execute(db);
  await sql`DROP TRIGGER aopd_proof_created ON aopd_proof`.execute(db);
  await sql`DROP FUNCTION aopd_sequence_proof_events(integer)`.execute(db);
  await sql`DROP FUNCTION aopd_record_proof_event()`.execute(db);
}

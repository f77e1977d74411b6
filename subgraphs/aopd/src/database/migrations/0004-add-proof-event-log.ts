import { sql, type Kysely } from "kysely";
import { createRecordProofEventTrigger, dropRecordProofEventTrigger } from "../../events/record-proof-event-trigger.js";

/**
 * The proof event log: every proof creation and status change, kept for replay. The tables are
 * made here; the trigger that records each change and the function that numbers the events are
 * `createRecordProofEventTrigger` (events/record-proof-event-trigger.ts), which says why they work
 * as they do.
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

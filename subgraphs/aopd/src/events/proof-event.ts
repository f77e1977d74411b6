import { sql, type Kysely, type Transaction } from "kysely";
import type { AopdDatabase, ProofStatus } from "../database/database-schema.js";

/** The PostgreSQL channel on which every proof write is announced to every replica. */
export const proofEventChannel = "aopd_proof_events";

/** What changed: a proof was created, or its status changed. */
export type ProofChange = "CREATED" | "STATUS_CHANGED";

/**
 * The notification payload. It names the proof rather than carrying it: NOTIFY payloads are
 * capped at 8000 bytes, and a listener reads the committed row anyway.
 */
export interface ProofEvent {
  id: string;
  change: ProofChange;
  status: ProofStatus;
}

/**
 * Announces a proof write. Called inside the writing transaction: PostgreSQL delivers a NOTIFY
 * only when that transaction commits, so listeners never hear of a rolled-back write and always
 * find the committed row when they read it.
 */
export async function publishProofEvent(trx: Transaction<AopdDatabase> | Kysely<AopdDatabase>, event: ProofEvent): Promise<void> {
  await sql`SELECT pg_notify(${proofEventChannel}, ${JSON.stringify(event)})`.execute(trx);
}

export function parseProofEvent(payload: string): ProofEvent | undefined {
  try {
    const event = JSON.parse(payload) as Partial<ProofEvent>;
    return typeof event.id === "string" && typeof event.change === "string" && typeof event.status === "string" ? (event as ProofEvent) : undefined;
  } catch {
    return undefined;
  }
}

import type { Proof } from "../proofs/proof.js";

/** Announced by every proof write: committed events wait to be numbered (see migration 0004). */
export const proofWritesChannel = "aopd_proof_writes";

/** Announced by each numbering, with the last position numbered: there are events to read. */
export const proofEventsChannel = "aopd_proof_events";

/** What changed: a proof was created, its status changed, or a new list version changed its screening to or from LISTED. */
export type ProofChange = "CREATED" | "STATUS_CHANGED" | "SCREENING_CHANGED";

/** One entry of the proof event log, as subscribers and `proofEvents` receive it. */
export interface ProofEvent {
  /** The event's place in the log (a bigint, kept as a string). */
  position: string;
  change: ProofChange;
  recordedAt: Date;
  /** The proof as this change left it, carrying the event's cursor. */
  proof: Proof & { eventCursor: string };
}

import { sql, type Kysely } from "kysely";
import { compileFilter, type FilterLimits } from "@compliance-graph/filter";
import type { AopdDatabase, ProofRow } from "../database/database-schema.js";
import { proofFilterSpec } from "../proofs/proof-filter-spec.js";
import { toProof } from "../proofs/proof.js";
import { encodeEventCursor } from "./event-cursor.js";
import type { ProofChange, ProofEvent } from "./proof-event.js";

/** A row of `selectProofEvents`: the event's columns beside the proof's, as the change left it. */
export type ProofEventRow = ProofRow & { position: string | number | bigint; change: ProofChange; recorded_at: Date };

/**
 * Numbered events after position `after`, in order, each joined to its proof snapshot expanded
 * into `aopd_proof`'s own row type under the table's own name: the filter compiler's column
 * references resolve to the snapshot, so an event matches a filter exactly as `proofs(filter)`
 * would have matched the proof at that moment (and a column added later reads as null in old
 * events, without migrating the log).
 */
export function selectProofEvents(db: Kysely<AopdDatabase>, after: string, through?: string) {
  let query = db
    .selectFrom(["aopd_proof_event as e", sql<ProofRow>`jsonb_populate_record(NULL::aopd_proof, e.proof)`.as("aopd_proof")])
    .select(["e.position", "e.change", "e.recorded_at"])
    .selectAll("aopd_proof")
    .where("e.position", ">", after)
    .orderBy("e.position")
    .$castTo<ProofEventRow>();
  if (through !== undefined) query = query.where("e.position", "<=", through);
  return query;
}

/** `selectProofEvents` narrowed to one filter (validated as `proofs` validates it). */
export function selectMatchingProofEvents(db: Kysely<AopdDatabase>, filter: unknown, limits: FilterLimits, after: string, through?: string) {
  return selectProofEvents(db, after, through).where((eb) => compileFilter(eb, proofFilterSpec, filter, "filter", limits));
}

export function toProofEvent(row: ProofEventRow): ProofEvent {
  const position = String(row.position);
  return { position, change: row.change, recordedAt: row.recorded_at, proof: { ...toProof(row), eventCursor: encodeEventCursor(position) } };
}

import type { Kysely } from "kysely";
import type { AopdDatabase, ProofKind, ProofRow } from "../database/database-schema.js";
import { decideProof, type DecisionRequest } from "./decide-proof.js";
import { proposeDecision } from "./propose-decision.js";

/**
 * An officer's assessment: a decision, or where the proof's kind needs four eyes
 * (`AOPD_FOUR_EYES_KINDS`), a proposal that a second officer confirms or rejects.
 */
export function assessProof(db: Kysely<AopdDatabase>, fourEyesKinds: readonly ProofKind[], request: DecisionRequest): Promise<ProofRow> {
  return fourEyesKinds.includes(request.kind) ? proposeDecision(db, request) : decideProof(db, request);
}

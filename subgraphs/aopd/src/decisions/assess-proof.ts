import type { Kysely } from "kysely";
import type { AopdDatabase, ProofRow } from "../database/database-schema.js";
import { decideProof, type DecisionRequest } from "./decide-proof.js";
import { requireFourEyesOfficer, type FourEyesRules } from "./four-eyes-officer.js";
import { proposeDecision } from "./propose-decision.js";

/**
 * An officer's assessment: a decision, or where the proof's kind needs four eyes
 * (`AOPD_FOUR_EYES_KINDS`), a proposal that a second officer confirms or rejects.
 */
export function assessProof(db: Kysely<AopdDatabase>, rules: FourEyesRules, request: DecisionRequest): Promise<ProofRow> {
  if (!rules.fourEyesKinds.includes(request.kind)) return decideProof(db, request);
  requireFourEyesOfficer(request.decider, rules, "propose a decision");
  return proposeDecision(db, request);
}

import type { Kysely } from "kysely";
import type { AopdDatabase, ProofRow } from "../../database/database-schema.js";
import { decisionRequestOf, type AssessmentInput } from "../../decisions/assessment-input.js";
import { assessProof } from "../../decisions/assess-proof.js";
import type { FourEyesRules } from "../../decisions/four-eyes-officer.js";
import type { Decider } from "../../audit/decider.js";
import { mediaKind } from "./media-kind.js";

/** An officer reviews the uploaded file: SUBMITTED to VERIFIED or FAILED, recorded as their decision (or their proposal, under four eyes). */
export async function assessMediaProof(
  db: Kysely<AopdDatabase>,
  rules: FourEyesRules,
  id: string,
  input: AssessmentInput,
  decider: Decider,
  requestId: string | null,
): Promise<ProofRow> {
  return assessProof(db, rules, decisionRequestOf("media", id, input, decider, requestId, mediaKind.decisionReasons));
}

import type { Kysely } from "kysely";
import type { AopdDatabase, ProofRow } from "../database/database-schema.js";
import { decisionRequestOf, type AssessmentInput } from "../decisions/assessment-input.js";
import { decideProof } from "../decisions/decide-proof.js";
import type { Decider } from "../decisions/decider.js";

/** An officer reviews the uploaded file: SUBMITTED to VERIFIED or FAILED, recorded as their decision. */
export async function assessMediaProof(db: Kysely<AopdDatabase>, id: string, input: AssessmentInput, decider: Decider): Promise<ProofRow> {
  return decideProof(db, decisionRequestOf("media", id, input, decider));
}

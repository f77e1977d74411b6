import { UserInputError } from "@compliance-graph/errors";
import { isUuid } from "@compliance-graph/filter";
import type { Kysely } from "kysely";
import type { Decider } from "../../audit/decider.js";
import type { AopdDatabase, ProofRow } from "../../database/database-schema.js";
import { assessProof } from "../../decisions/assess-proof.js";
import { decisionRequestOf, type AssessmentInput } from "../../decisions/assessment-input.js";
import type { FourEyesRules } from "../../decisions/four-eyes-officer.js";
import { ProofStateRefusal, UnknownProofRefusal } from "../../proofs/proof-refusal.js";
import { officerDecides } from "../proof-kinds.js";
import { signatureKind } from "./signature-kind.js";

/**
 * An officer decides a signature proof its evidence left for review (a valid signature of a LISTED
 * address, or of a key with a LISTED sibling address, under `AOPD_SCREENING_POLICY=refuse`):
 * SUBMITTED to VERIFIED or FAILED through the path every officer decision takes (`assessProof`:
 * its decision row and trail entry, four eyes where `AOPD_FOUR_EYES_KINDS` names `signature`, the
 * status change's event).
 *
 * Threat: an officer's click turning a sanctioned party's proof into a VERIFIED one without a word
 * on record, or an officer overriding what a signature decided. So VERIFIED needs the officer's
 * own words on why the risk is accepted (`reasonText`), and any other signature proof (one its
 * signature decided, or one still PENDING) is refused, naming why: `officerDecides` is the rule.
 * The receipt of a proof so VERIFIED follows `AOPD_RECEIPT_FOR_LISTED` (issue-proof-receipt.ts).
 */
export async function assessSignatureProof(
  db: Kysely<AopdDatabase>,
  rules: FourEyesRules,
  id: string,
  input: AssessmentInput,
  decider: Decider,
  requestId: string | null,
): Promise<ProofRow> {
  const request = decisionRequestOf("signature", id, input, decider, requestId, signatureKind.decisionReasons);
  if (request.outcome === "VERIFIED" && request.reasonText === null) {
    throw new UserInputError(
      "reasonText",
      "is required to verify a signature proof left for review by screening: say why the risk of the listed address is accepted, in 1 to 2000 characters.",
    );
  }
  if (!isUuid(id)) throw UnknownProofRefusal.byId(id);
  const current = await db.selectFrom("aopd_proof").select(["kind", "status", "left_for_review"]).where("id", "=", id.toLowerCase()).executeTakeFirst();
  if (current && current.kind === "signature" && !officerDecides(current)) {
    throw new ProofStateRefusal(
      "wrong_status",
      `The signature proof is ${current.status} and was not left for review: its signature decides it. ` +
        "An officer decides a signature proof only when screening left it for review (a LISTED address under AOPD_SCREENING_POLICY=refuse).",
      current.status,
    );
  }
  // The state machine refuses the rest as for any kind: an unknown proof, another kind, a status other than SUBMITTED.
  return assessProof(db, rules, request);
}

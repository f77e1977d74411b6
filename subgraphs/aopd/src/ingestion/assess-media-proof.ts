import type { Kysely } from "kysely";
import type { AopdDatabase, Assessment, ProofRow } from "../database/database-schema.js";
import { changeProofStatus } from "./change-proof-status.js";
import { optionalComment } from "./proof-input-rules.js";

/** An officer reviews the uploaded file: SUBMITTED to VERIFIED or FAILED, as Satoshi proofs are assessed. */
export async function assessMediaProof(db: Kysely<AopdDatabase>, id: string, assessment: Assessment, comment: string | null | undefined): Promise<ProofRow> {
  const checkedComment = optionalComment("comment", comment);
  return changeProofStatus(db, id, {
    action: "assessed",
    kind: "media",
    from: ["SUBMITTED"],
    set: { status: assessment, assessment, ...(checkedComment !== null ? { comment: checkedComment } : {}) },
  });
}

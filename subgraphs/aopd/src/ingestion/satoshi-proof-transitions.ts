import type { DtiAsset } from "@compliance-graph/dti-assets";
import { ConflictError, NotFoundError, UserInputError } from "@compliance-graph/errors";
import { isUuid } from "@compliance-graph/filter";
import type { Kysely } from "kysely";
import type { AopdConfig } from "../aopd-config.js";
import type { AopdDatabase, Assessment, ProofRow } from "../database/database-schema.js";
import { changeProofStatus } from "./change-proof-status.js";
import { optionalComment } from "./proof-input-rules.js";

/** Transaction ids as each address family writes them; other families get a shape check. */
function requireTxId(asset: DtiAsset | undefined, txId: string): string {
  const rule =
    asset?.addressFamily === "bitcoin"
      ? { pattern: /^[0-9a-fA-F]{64}$/, allowed: "64 hexadecimal characters" }
      : asset?.addressFamily === "ethereum"
        ? { pattern: /^0x[0-9a-fA-F]{64}$/, allowed: "0x and 64 hexadecimal characters" }
        : { pattern: /^[A-Za-z0-9]{16,128}$/, allowed: "16 to 128 letters or digits" };
  if (!rule.pattern.test(txId)) throw new UserInputError("txId", `is not a transaction id of ${asset?.name ?? "the asset"}: expected ${rule.allowed}.`);
  return txId;
}

/**
 * The customer reports the test transaction: PENDING (and not yet due) to SUBMITTED. Idempotent:
 * the same transaction id reported again (a retry after a lost answer, from the portal or the API)
 * gets the proof as it now stands; a different one is a conflict.
 */
export async function finalizeSatoshiProof(db: Kysely<AopdDatabase>, config: AopdConfig, id: string, txId: string): Promise<ProofRow> {
  if (!isUuid(id)) throw new NotFoundError("The proof", id);
  const current = await db.selectFrom("aopd_proof").select("asset").where("id", "=", id.toLowerCase()).executeTakeFirst();
  const checkedTxId = requireTxId(current ? config.assets.get(current.asset) : undefined, txId);
  try {
    return await changeProofStatus(db, id, {
      action: "finalized",
      kind: "satoshi",
      from: ["PENDING"],
      beforeDue: true,
      set: { status: "SUBMITTED", tx_id: checkedTxId, due_at: null },
    });
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const now = await db.selectFrom("aopd_proof").selectAll().where("id", "=", id.toLowerCase()).executeTakeFirst();
    // Transaction ids are hexadecimal: the same id in another case is the same transaction.
    if (now?.tx_id !== null && now?.tx_id !== undefined && now.tx_id.toLowerCase() === checkedTxId.toLowerCase()) return now;
    throw error;
  }
}

/** The compliance team assesses the reported transaction: SUBMITTED to VERIFIED or FAILED. */
export async function assessSatoshiProof(db: Kysely<AopdDatabase>, id: string, assessment: Assessment, comment: string | null | undefined): Promise<ProofRow> {
  const checkedComment = optionalComment("comment", comment);
  return changeProofStatus(db, id, {
    action: "assessed",
    kind: "satoshi",
    from: ["SUBMITTED"],
    set: { status: assessment, assessment, ...(checkedComment !== null ? { comment: checkedComment } : {}) },
  });
}

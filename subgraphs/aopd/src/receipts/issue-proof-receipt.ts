import { ConflictError, NotFoundError } from "@compliance-graph/errors";
import type { AssetRegistry } from "@compliance-graph/dti-assets";
import { isUuid } from "@compliance-graph/filter";
import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { proofReceiptStatement } from "./proof-receipt-claims.js";
import type { ReceiptConfig } from "./receipt-config.js";
import { receiptLogClaim } from "./receipt-log-claim.js";
import type { ProofReceipt, ReceiptSigner } from "./receipt-signer.js";

/**
 * A signed receipt for a VERIFIED proof (docs/receipts.md). Anything else is refused, naming the
 * status: a receipt says the customer controls the address, which only a VERIFIED proof says; and
 * a proof whose address is LISTED gets none unless `AOPD_RECEIPT_FOR_LISTED=issue`. The receipt is
 * recorded (`aopd_receipt`) under a share lock of the proof row, so a reopening or a new list
 * version cannot slip between the read and the record: it either comes after and revokes it
 * (migration 0022's trigger) or before and the receipt is refused. It carries the decision's
 * inclusion in the audit log (`log`), read before the lock since it may wait for a checkpoint.
 */
export async function issueProofReceipt(
  db: Kysely<AopdDatabase>,
  assets: AssetRegistry,
  signer: ReceiptSigner,
  config: Pick<ReceiptConfig, "forListed">,
  id: string,
): Promise<ProofReceipt> {
  if (!isUuid(id)) throw new NotFoundError("The proof", id);
  // The decision's place in the audit log, when a signed checkpoint covers it (waits briefly for one).
  const log = await receiptLogClaim(db, id.toLowerCase());
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("aopd_proof").selectAll().where("id", "=", id.toLowerCase()).forShare().executeTakeFirst();
    if (!row) throw new NotFoundError("The proof", id);
    if (row.status !== "VERIFIED") {
      throw new ConflictError(`The proof is ${row.status}; a receipt is issued only for a VERIFIED proof.`, { status: row.status });
    }
    if (config.forListed !== "issue" && (row.screening_status === "LISTED" || row.provider_screening_status === "LISTED")) {
      throw new ConflictError(
        "The proof's address is LISTED by screening; this deployment issues no receipt for a listed address (AOPD_RECEIPT_FOR_LISTED=refuse).",
        {
          status: row.status,
          screening: "LISTED",
        },
      );
    }
    const receipt = await signer.sign(proofReceiptStatement(row, assets), new Date(), log);
    await trx
      .insertInto("aopd_receipt")
      .values({ id: receipt.receiptId, proof_id: row.id, issued_at: receipt.issuedAt, expires_at: receipt.expiresAt, screening_status: row.screening_status })
      .execute();
    return receipt;
  });
}

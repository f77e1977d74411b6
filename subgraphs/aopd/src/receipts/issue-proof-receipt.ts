import { ConflictError, NotFoundError } from "@compliance-graph/errors";
import type { AssetRegistry } from "@compliance-graph/dti-assets";
import { isUuid } from "@compliance-graph/filter";
import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { proofReceiptStatement } from "./proof-receipt-claims.js";
import { receiptLogClaim } from "./receipt-log-claim.js";
import type { ProofReceipt, ReceiptSigner } from "./receipt-signer.js";

/**
 * A signed receipt for a VERIFIED proof (docs/receipts.md). Anything else is refused, naming the
 * status: a receipt says the customer controls the address, which only a VERIFIED proof says.
 * Reads and changes nothing; carries the decision's inclusion in the audit log (`log`).
 */
export async function issueProofReceipt(db: Kysely<AopdDatabase>, assets: AssetRegistry, signer: ReceiptSigner, id: string): Promise<ProofReceipt> {
  if (!isUuid(id)) throw new NotFoundError("The proof", id);
  const row = await db.selectFrom("aopd_proof").selectAll().where("id", "=", id.toLowerCase()).executeTakeFirst();
  if (!row) throw new NotFoundError("The proof", id);
  if (row.status !== "VERIFIED") {
    throw new ConflictError(`The proof is ${row.status}; a receipt is issued only for a VERIFIED proof.`, { status: row.status });
  }
  // The decision's place in the audit log, when a signed checkpoint covers it (waits briefly for one).
  return signer.sign(proofReceiptStatement(row, assets), new Date(), await receiptLogClaim(db, row.id));
}

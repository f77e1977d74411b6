import { ConflictError, NotFoundError } from "@compliance-graph/errors";
import type { AssetRegistry } from "@compliance-graph/dti-assets";
import { isUuid } from "@compliance-graph/filter";
import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { proofReceiptStatement } from "./proof-receipt-claims.js";
import type { ProofReceipt, ReceiptSigner } from "./receipt-signer.js";

/**
 * A signed receipt for a VERIFIED proof (docs/receipts.md). Anything else is refused, naming the
 * status: a receipt says the customer controls the address, which only a VERIFIED proof says.
 * Reads one row and changes nothing.
 */
export async function issueProofReceipt(db: Kysely<AopdDatabase>, assets: AssetRegistry, signer: ReceiptSigner, id: string): Promise<ProofReceipt> {
  if (!isUuid(id)) throw new NotFoundError("The proof", id);
  const row = await db.selectFrom("aopd_proof").selectAll().where("id", "=", id.toLowerCase()).executeTakeFirst();
  if (!row) throw new NotFoundError("The proof", id);
  if (row.status !== "VERIFIED") {
    throw new ConflictError(`The proof is ${row.status}; a receipt is issued only for a VERIFIED proof.`, { status: row.status });
  }
  return signer.sign(proofReceiptStatement(row, assets));
}

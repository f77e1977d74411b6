import type { AopdDatabase } from "../../database/database-schema.js";
import type { UpdateObject } from "kysely";
import { amountInUnits } from "./amount-in-units.js";
import type { ChainTransaction } from "../../chain/chain-transaction.js";
import type { SatoshiRequest } from "./judge-satoshi-transaction.js";
import { sameAddress } from "../../chain/same-address.js";

/**
 * What the chain check found about a Satoshi proof's transaction, as the proof row keeps it
 * (migrations 0006 and 0014): the block (height and hash), how deep it was, what it paid the
 * deposit address and who paid it. Kept so that the record holds the evidence a verdict rests on,
 * not only the verdict: an auditor can look the block and the transaction up and compare.
 *
 * Null while the transaction is unknown or in the mempool (nothing is final there); a reverted
 * transaction paid nothing, so its amount received is 0 and it has no senders.
 *
 * @param decimals the asset's decimals as the registry knows them (null: unknown, no whole units)
 */
export function chainFindingColumns(
  request: SatoshiRequest,
  tx: ChainTransaction | null,
  decimals: number | null,
): UpdateObject<AopdDatabase, "aopd_proof"> | null {
  if (tx === null || tx.blockHeight === null || tx.confirmations < 1) return null;
  const toDeposit = tx.reverted ? [] : tx.payments.filter((payment) => sameAddress(request.family, payment.to, request.depositAddress));
  const received = toDeposit.reduce((sum, payment) => sum + payment.amount, 0n);
  return {
    block_height: tx.blockHeight,
    block_hash: tx.blockHash,
    confirmations: tx.confirmations,
    amount_received: received.toString(),
    amount_received_units: amountInUnits(received.toString(), decimals),
    transaction_senders: [...new Set(toDeposit.flatMap((payment) => payment.from))],
  };
}

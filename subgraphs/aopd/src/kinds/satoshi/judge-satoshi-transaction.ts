import type { AddressFamily } from "@compliance-graph/dti-assets";
import type { DecisionReason } from "../../database/database-schema.js";
import type { ChainTransaction } from "../../chain/chain-transaction.js";
import { sameAddress } from "../../chain/same-address.js";

/** What a Satoshi proof asks of its test transaction. */
export interface SatoshiRequest {
  family: AddressFamily | null;
  senderAddress: string;
  depositAddress: string;
  /** Lowest denomination. */
  amount: bigint;
  requiredConfirmations: number;
}

export type SatoshiVerdict =
  | { outcome: "verified"; blockHeight: number; confirmations: number }
  /** `code`: the decision's reason code; `reason`: the same in words, with the figures. */
  | { outcome: "failed"; code: DecisionReason; reason: string; blockHeight: number | null; confirmations: number }
  /** Not decided yet: unknown to the chain, in the mempool, or not deep enough. */
  | { outcome: "waiting"; blockHeight: number | null; confirmations: number };

/**
 * Judges the reported transaction against the request. A pure function: the watcher fetches,
 * this decides. Only a transaction in a block is judged: a mempool transaction may still be
 * replaced, so neither its match nor its mismatch is final. The amount is compared exactly and as
 * the sum of everything the transaction pays the deposit address (two outputs of half the amount
 * are the amount; the amount plus a tip is not).
 */
export function judgeSatoshiTransaction(request: SatoshiRequest, tx: ChainTransaction | null): SatoshiVerdict {
  if (tx === null || tx.blockHeight === null || tx.confirmations < 1) return { outcome: "waiting", blockHeight: null, confirmations: 0 };
  const { blockHeight, confirmations } = tx;
  const fail = (code: DecisionReason, reason: string): SatoshiVerdict => ({ outcome: "failed", code, reason, blockHeight, confirmations });
  if (tx.reverted) return fail("TRANSACTION_FAILED", "The transaction failed on chain (reverted); it paid nothing.");
  const toDeposit = tx.payments.filter((payment) => sameAddress(request.family, payment.to, request.depositAddress));
  if (toDeposit.length === 0) return fail("WRONG_RECIPIENT", "The transaction pays nothing of the asset to the deposit address.");
  const paid = toDeposit.reduce((sum, payment) => sum + payment.amount, 0n);
  if (paid !== request.amount)
    return fail("WRONG_AMOUNT", `The transaction pays ${paid} to the deposit address; the proof asks for exactly ${request.amount} (lowest denomination).`);
  const fromSender = toDeposit.every((payment) => payment.from.some((from) => sameAddress(request.family, from, request.senderAddress)));
  if (!fromSender) return fail("WRONG_SENDER", "The transaction does not come from the sender address.");
  if (confirmations < request.requiredConfirmations) return { outcome: "waiting", blockHeight, confirmations };
  return { outcome: "verified", blockHeight, confirmations };
}

import type { Proof, SatoshiProof } from "../../proofs/proof.js";
import type { ProofKindModule } from "../proof-kind.js";
import { amountInUnits } from "./amount-in-units.js";
import { paymentUri } from "./payment-uri.js";

const satoshi = (proof: Proof): SatoshiProof | undefined => (proof.__typename === "AopdSatoshiProof" ? proof : undefined);

/**
 * The Satoshi proof: the customer sends an exact small amount from the address to a deposit
 * address and reports the transaction (`finalizeSatoshiProof`, or the portal); an officer assesses
 * it (`assessSatoshiProof`), or the chain watcher where the asset's network is checked on chain.
 * Requested with `requestSatoshiProof`.
 */
export const satoshiKind: ProofKindModule<"satoshi"> = {
  name: "satoshi",
  typename: "AopdSatoshiProof",
  decidedBy: "officer",
  leavesForReview: false,
  decisionReasons: ["THIRD_PARTY_WALLET", "WRONG_AMOUNT", "WRONG_SENDER", "WRONG_RECIPIENT", "TRANSACTION_FAILED", "OTHER"],
  exportColumns: {
    request: [
      {
        header: "Amount (lowest denomination)",
        width: 22,
        type: "text",
        value: (p) => satoshi(p)?.amount ?? null,
        sql: "CASE WHEN p.kind = 'satoshi' THEN p.amount::text END",
      },
      {
        header: "Sender address",
        width: 44,
        type: "text",
        value: (p) => satoshi(p)?.senderAddress ?? null,
        sql: "CASE WHEN p.kind = 'satoshi' THEN p.address END",
      },
      {
        header: "Deposit address",
        width: 44,
        type: "text",
        value: (p) => satoshi(p)?.depositAddress ?? null,
        sql: "CASE WHEN p.kind = 'satoshi' THEN p.deposit_address END",
      },
      { header: "Transaction ID", width: 66, type: "text", value: (p) => satoshi(p)?.txId ?? null, sql: "CASE WHEN p.kind = 'satoshi' THEN p.tx_id END" },
    ],
    // What the chain check found about the transaction (docs/chain-checks.md); kept through a reopening.
    findings: [
      {
        header: "Block height",
        width: 12,
        type: "text",
        value: (p) => (satoshi(p)?.blockHeight ?? null)?.toString() ?? null,
        sql: "CASE WHEN p.kind = 'satoshi' THEN p.block_height::text END",
      },
      { header: "Block hash", width: 66, type: "text", value: (p) => satoshi(p)?.blockHash ?? null, sql: "CASE WHEN p.kind = 'satoshi' THEN p.block_hash END" },
      {
        header: "Confirmations",
        width: 14,
        type: "text",
        value: (p) => (satoshi(p)?.confirmations ?? null)?.toString() ?? null,
        sql: "CASE WHEN p.kind = 'satoshi' THEN p.confirmations::text END",
      },
      {
        header: "Amount received (lowest denomination)",
        width: 22,
        type: "text",
        value: (p) => satoshi(p)?.amountReceived ?? null,
        sql: "CASE WHEN p.kind = 'satoshi' THEN p.amount_received::text END",
      },
      {
        header: "Amount received (units)",
        width: 22,
        type: "text",
        value: (p) => satoshi(p)?.amountReceivedUnits ?? null,
        sql: "CASE WHEN p.kind = 'satoshi' THEN p.amount_received_units END",
      },
      {
        header: "Transaction senders",
        width: 44,
        type: "text",
        value: (p) => satoshi(p)?.transactionSenders?.join(", ") ?? null,
        sql: "CASE WHEN p.kind = 'satoshi' THEN array_to_string(p.transaction_senders, ', ') END",
      },
      {
        header: "Chain check failure",
        width: 30,
        type: "text",
        value: (p) => satoshi(p)?.failureReason ?? null,
        sql: "CASE WHEN p.kind = 'satoshi' THEN p.failure_reason END",
      },
    ],
  },
  portalView: (config, row) => {
    const asset = config.assets.get(row.asset);
    return {
      amount: String(row.amount),
      amountInUnits: amountInUnits(String(row.amount), asset?.decimals ?? null),
      depositAddress: row.deposit_address ?? "",
      paymentUri: paymentUri(asset, row.deposit_address ?? "", String(row.amount)),
      txId: row.tx_id,
    };
  },
  schemaFile: new URL("./satoshi-proof.graphql", import.meta.url),
};

/**
 * A transaction as the chain watcher judges it, whichever API it came from: where it sits and
 * what it pays to whom. Amounts are in the lowest denomination of the asset that was asked about
 * (satoshi, wei, or the token's own unit).
 */
export interface ChainTransaction {
  /** The block that holds it; null while it waits in the mempool. */
  blockHeight: number | null;
  /** Blocks on top of it, its own included (0 in the mempool). */
  confirmations: number;
  /** The transaction ran and failed (an EVM revert): it paid nothing. */
  reverted: boolean;
  /** The asset's movements: Bitcoin outputs, the EVM value transfer, or the token's `Transfer` logs. */
  payments: ChainPayment[];
}

export interface ChainPayment {
  to: string;
  amount: bigint;
  /** Who paid: every input address of a Bitcoin transaction, the EVM sender, or the token transfer's `from`. */
  from: string[];
}

/** One network's API, as the watcher uses it. */
export interface ChainClient {
  readonly network: string;
  /**
   * The transaction, with the payments of the asset (`contract` null: the native asset; else the
   * token at that contract); null when the chain does not know it (yet).
   * Throws `ChainConnectionError` when the connection cannot answer.
   */
  transaction(txId: string, contract: string | null): Promise<ChainTransaction | null>;
}

/**
 * A transaction as the chain watcher judges it, whichever API it came from: where it sits and
 * what it pays to whom. Amounts are in the lowest denomination of the asset that was asked about
 * (satoshi, wei, or the token's own unit).
 */
export interface ChainTransaction {
  /** The block that holds it; null while it waits in the mempool. */
  blockHeight: number | null;
  /** That block's hash; null while in the mempool. */
  blockHash: string | null;
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

/** A transaction found while watching a deposit address, with its id. */
export type FoundTransaction = ChainTransaction & { txId: string };

/** What watching the deposit address of a PENDING proof looks for. */
export interface DepositWatch {
  depositAddress: string;
  senderAddress: string;
  /** Lowest denomination. */
  amount: bigint;
  /** null: the native asset; else the token at that contract. */
  contract: string | null;
  /** When the proof was made: earlier payments are not its test transaction. */
  since: Date;
  /** Where the previous pass stopped, in the client's own terms; null at the first pass. */
  cursor: string | null;
  /** The confirmations that count on this network (a client may look only at blocks that deep). */
  confirmations: number;
}

export interface DepositScan {
  /** Transactions in blocks, since `since`, that may pay the proof: oldest first, as `transaction` gives them. */
  candidates: FoundTransaction[];
  /** Where the next pass goes on (stored with the proof). */
  cursor: string | null;
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
  /**
   * Looks for payments to a PENDING proof's deposit address, going on from `watch.cursor`; each
   * call does a bounded amount of work. Throws `ChainConnectionError` like `transaction`.
   */
  paymentsToDeposit(watch: DepositWatch): Promise<DepositScan>;
}

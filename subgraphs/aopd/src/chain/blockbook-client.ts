import { ChainConnectionError } from "./chain-connection-error.js";
import type { ChainEndpoint } from "./chain-endpoint.js";
import type { ChainClient, ChainTransaction, DepositScan, DepositWatch, FoundTransaction } from "./chain-transaction.js";

/** The fields of Blockbook's `GET /api/v2/tx/<txid>` the watcher reads (Blockbook omits empty fields). */
interface BlockbookTx {
  txid?: string;
  vin?: { addresses?: string[]; isAddress?: boolean }[];
  vout?: { value?: string; addresses?: string[]; isAddress?: boolean }[];
  blockHeight?: number;
  blockHash?: string;
  confirmations?: number;
  /** Unix seconds: the block's time, or when a mempool transaction was first seen. */
  blockTime?: number;
}

/** The fields of `GET /api/v2/address/<address>?details=txs` the watcher reads. */
interface BlockbookAddressPage {
  page?: number;
  totalPages?: number;
  transactions?: unknown[];
}

export interface BlockbookClientOptions {
  /** `AOPD_CHAIN_ADDRESS_PAGE_SIZE`: transactions per address page (Blockbook allows up to 1,000). @default 100 */
  pageSize?: number;
  /** `AOPD_CHAIN_ADDRESS_PAGES_PER_PASS`: address pages one watch of a deposit address reads per pass. @default 10 */
  pagesPerPass?: number;
}

/**
 * How much earlier than the proof a block's time may say and still hold its test transaction: a
 * block's timestamp need only exceed the median of the eleven before it (about an hour back) and
 * may run up to two hours ahead of the clock, so a block mined after the proof can claim an
 * earlier time. The proof's random amount keeps an older payment from passing for its own.
 */
const blockTimeSlackSeconds = 2 * 3_600;

/**
 * Bitcoin through a Blockbook server's REST API (API V2: amounts are strings in satoshi, empty
 * fields are left out). Blockbook answers an unknown transaction with 400 (some proxies in front
 * of it with 404) and a JSON `error`: that is "not on chain yet", not a failure of the connection.
 */
export class BlockbookClient implements ChainClient {
  readonly network: string;

  readonly #pageSize: number;
  readonly #pagesPerPass: number;

  constructor(
    private readonly endpoint: ChainEndpoint,
    options: BlockbookClientOptions = {},
  ) {
    this.network = endpoint.network;
    this.#pageSize = Math.min(1_000, Math.max(1, options.pageSize ?? 100));
    this.#pagesPerPass = Math.max(1, options.pagesPerPass ?? 10);
  }

  async transaction(txId: string, contract: string | null): Promise<ChainTransaction | null> {
    if (contract !== null) throw new Error("Blockbook checks carry only the native asset; tokens on Bitcoin (Omni) are not checked on chain.");
    const { status, body } = await this.endpoint.getJson(`/api/v2/tx/${encodeURIComponent(txId)}`);
    if (status === 400 || status === 404) return null;
    if (status !== 200 || !isBlockbookTx(body) || body.txid?.toLowerCase() !== txId.toLowerCase()) {
      throw new ChainConnectionError("bad_response", this.network);
    }
    return transactionOf(body);
  }

  /**
   * Reads the deposit address's transactions newest first (`details=txs`, paged), back to the
   * proof's creation, at most `pagesPerPass` pages: an address that received more transactions
   * than that since the proof was made is not seen whole. Mempool transactions are left for a
   * later pass (they may still be replaced). No cursor: each pass reads from the newest again.
   */
  async paymentsToDeposit(watch: DepositWatch): Promise<DepositScan> {
    if (watch.contract !== null) throw new Error("Blockbook checks carry only the native asset; tokens on Bitcoin (Omni) are not checked on chain.");
    const since = watch.since.getTime() / 1_000 - blockTimeSlackSeconds;
    const found: FoundTransaction[] = [];
    for (let page = 1; page <= this.#pagesPerPass; page += 1) {
      const path = `/api/v2/address/${encodeURIComponent(watch.depositAddress)}?details=txs&page=${page}&pageSize=${this.#pageSize}`;
      const { status, body } = await this.endpoint.getJson(path);
      // Blockbook refuses an address it cannot parse (another network's, say) with 400: nothing to find there.
      if (status === 400) break;
      if (status !== 200 || typeof body !== "object" || body === null) throw new ChainConnectionError("bad_response", this.network);
      const answer = body as BlockbookAddressPage;
      let reachedOlder = false;
      for (const tx of answer.transactions ?? []) {
        if (!isBlockbookTx(tx) || typeof tx.txid !== "string") throw new ChainConnectionError("bad_response", this.network);
        const transaction = transactionOf(tx);
        if (transaction.blockHeight === null) continue;
        if ((tx.blockTime ?? Number.POSITIVE_INFINITY) < since) {
          reachedOlder = true;
          continue;
        }
        found.push({ txId: tx.txid, ...transaction });
      }
      // Blockbook answers a page out of range with the closest one: stop at the last.
      if (reachedOlder || (answer.transactions ?? []).length === 0 || page >= (answer.totalPages ?? 1) || answer.page !== page) break;
    }
    return { candidates: found.reverse(), cursor: null };
  }
}

function isBlockbookTx(body: unknown): body is BlockbookTx {
  return typeof body === "object" && body !== null && Array.isArray((body as BlockbookTx).vin) && Array.isArray((body as BlockbookTx).vout);
}

function transactionOf(tx: BlockbookTx): ChainTransaction {
  const senders = [...new Set((tx.vin ?? []).flatMap((input) => (input.isAddress === false ? [] : (input.addresses ?? []))))];
  const confirmations = tx.confirmations ?? 0;
  // A mempool transaction has no confirmations and a height of -1 or none at all.
  const inBlock = confirmations > 0 && tx.blockHeight !== undefined && tx.blockHeight > 0;
  return {
    blockHeight: inBlock ? tx.blockHeight! : null,
    blockHash: inBlock && typeof tx.blockHash === "string" ? tx.blockHash : null,
    confirmations,
    reverted: false,
    // An output without a single address (OP_RETURN, bare multisig) pays nobody the watcher compares.
    payments: (tx.vout ?? []).flatMap((output) =>
      output.isAddress !== false && output.addresses?.length === 1 && /^\d+$/.test(output.value ?? "0")
        ? [{ to: output.addresses[0]!, amount: BigInt(output.value ?? "0"), from: senders }]
        : [],
    ),
  };
}

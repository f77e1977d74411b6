import { ChainConnectionError } from "./chain-connection-error.js";
import type { ChainEndpoint } from "./chain-endpoint.js";
import type { ChainClient, ChainPayment, ChainTransaction, DepositScan, DepositWatch, FoundTransaction } from "./chain-transaction.js";

/** keccak256("Transfer(address,address,uint256)"): the topic of ERC-20 and BEP-20 transfers. */
export const transferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

interface RpcTransaction {
  hash: string;
  from: string;
  to: string | null;
  value: string;
  blockNumber: string | null;
}

interface RpcBlock {
  number: string;
  timestamp: string;
  transactions: RpcTransaction[];
}

interface RpcLog {
  transactionHash: string;
  topics: string[];
  data: string;
  removed?: boolean;
}

export interface EvmJsonRpcClientOptions {
  /** `AOPD_CHAIN_PENDING_BLOCKS_PER_PASS`: blocks one watch of a deposit address covers per pass. @default 100 */
  blocksPerPass?: number;
}

/** How much earlier than the proof a block's timestamp may be and still hold its payment (clock skew between us and the validators). */
const blockTimeSlackSeconds = 60;
/** Final blocks kept for the next watches of this pass and the next (PENDING proofs of one network scan mostly the same blocks). */
const blockCacheSize = 2_048;
/** Blocks fetched at once while scanning. */
const blockFetchConcurrency = 8;

interface RpcReceipt {
  status?: string;
  blockNumber: string;
  blockHash: string;
  logs: { address: string; topics: string[]; data: string; removed?: boolean }[];
}

/**
 * An EVM network (Ethereum, BNB Smart Chain, Polygon) through its standard JSON-RPC API. The
 * native amount is the transaction's `value` to its `to`; a token amount is the sum of the token
 * contract's `Transfer` logs in the receipt (a plain `transfer` call has one; a contract wallet or
 * router may emit several). Value moved by internal calls of contracts is not seen: that needs
 * tracing APIs that standard nodes do not offer.
 */
export class EvmJsonRpcClient implements ChainClient {
  readonly network: string;
  #nextId = 1;
  readonly #blocksPerPass: number;
  /** Blocks deep enough not to change, by number: the transactions a scan compares. */
  readonly #finalBlocks = new Map<number, RpcTransaction[]>();

  constructor(
    private readonly endpoint: ChainEndpoint,
    options: EvmJsonRpcClientOptions = {},
  ) {
    this.network = endpoint.network;
    this.#blocksPerPass = Math.max(1, options.blocksPerPass ?? 100);
  }

  async transaction(txId: string, contract: string | null): Promise<ChainTransaction | null> {
    const tx = await this.call<RpcTransaction | null>("eth_getTransactionByHash", [txId]);
    if (tx === null) return null;
    if (tx.blockNumber === null)
      return { blockHeight: null, blockHash: null, confirmations: 0, reverted: false, payments: contract === null ? nativePayments(tx) : [] };
    const [receipt, head] = await Promise.all([this.call<RpcReceipt | null>("eth_getTransactionReceipt", [txId]), this.call<string>("eth_blockNumber", [])]);
    // Between the two calls the block may have been reorganised away: seen again at the next check.
    if (receipt === null) return { blockHeight: null, blockHash: null, confirmations: 0, reverted: false, payments: [] };
    const blockHeight = Number(BigInt(receipt.blockNumber));
    const reverted = receipt.status === "0x0";
    return {
      blockHeight,
      blockHash: typeof receipt.blockHash === "string" ? receipt.blockHash : null,
      confirmations: Math.max(0, Number(BigInt(head)) - blockHeight + 1),
      reverted,
      payments: reverted ? [] : contract === null ? nativePayments(tx) : tokenPayments(receipt, contract),
    };
  }

  /**
   * Scans the blocks since the proof's creation that already have the confirmations that count
   * (a shallower block may still be reorganised away, and what is found is verified at once),
   * at most `blocksPerPass` per pass, going on at `cursor` (the next block number).
   *
   * Tokens: the token's `Transfer` logs to the deposit address (`eth_getLogs`, filtered on the
   * recipient topic). Native amounts: standard JSON-RPC has no query for the transactions to an
   * address, so every transaction of every block in range is read (`eth_getBlockByNumber(n,
   * true)`), and final blocks are cached for the other watches. A payment made by a contract
   * (an internal call, a smart-contract wallet) is not seen, as for a reported transaction.
   */
  async paymentsToDeposit(watch: DepositWatch): Promise<DepositScan> {
    const head = Number(BigInt(await this.call<string>("eth_blockNumber", [])));
    const deepEnough = head - watch.confirmations + 1;
    const from = watch.cursor !== null ? Number(watch.cursor) : await this.#firstBlockSince(watch.since, head);
    const to = Math.min(deepEnough, from + this.#blocksPerPass - 1);
    if (to < from) return { candidates: [], cursor: String(from) };
    const hashes = watch.contract === null ? await this.#nativeCandidates(watch, from, to) : await this.#tokenCandidates(watch, watch.contract, from, to);
    const candidates: FoundTransaction[] = [];
    for (const hash of hashes) {
      const tx = await this.transaction(hash, watch.contract);
      if (tx !== null && tx.blockHeight !== null) candidates.push({ txId: hash, ...tx });
    }
    return { candidates, cursor: String(to + 1) };
  }

  /** The hashes of transactions in [from, to] sending exactly the amount from the sender to the deposit address. */
  async #nativeCandidates(watch: DepositWatch, from: number, to: number): Promise<string[]> {
    const numbers = Array.from({ length: to - from + 1 }, (_, index) => from + index);
    const blocks: RpcTransaction[][] = [];
    for (let start = 0; start < numbers.length; start += blockFetchConcurrency) {
      blocks.push(...(await Promise.all(numbers.slice(start, start + blockFetchConcurrency).map((number) => this.#finalBlock(number)))));
    }
    const [deposit, sender] = [watch.depositAddress.toLowerCase(), watch.senderAddress.toLowerCase()];
    return blocks
      .flat()
      .filter((tx) => tx.to?.toLowerCase() === deposit && tx.from.toLowerCase() === sender && BigInt(tx.value) === watch.amount)
      .map((tx) => tx.hash);
  }

  async #finalBlock(number: number): Promise<RpcTransaction[]> {
    const cached = this.#finalBlocks.get(number);
    if (cached) return cached;
    const block = await this.call<RpcBlock | null>("eth_getBlockByNumber", [`0x${number.toString(16)}`, true]);
    if (block === null) throw new ChainConnectionError("bad_response", this.network);
    if (this.#finalBlocks.size >= blockCacheSize) this.#finalBlocks.delete(this.#finalBlocks.keys().next().value!);
    this.#finalBlocks.set(number, block.transactions);
    return block.transactions;
  }

  /** The hashes of transactions in [from, to] with a token `Transfer` of the amount from the sender to the deposit address. */
  async #tokenCandidates(watch: DepositWatch, contract: string, from: number, to: number): Promise<string[]> {
    const topicOf = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, "0")}`;
    const logs = await this.call<RpcLog[]>("eth_getLogs", [
      { fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}`, address: contract, topics: [transferTopic, null, topicOf(watch.depositAddress)] },
    ]);
    const sender = topicOf(watch.senderAddress);
    const hashes = logs
      .filter((log) => !log.removed && log.topics[1]?.toLowerCase() === sender && log.data !== "0x" && BigInt(log.data) === watch.amount)
      .map((log) => log.transactionHash);
    return [...new Set(hashes)];
  }

  /** The first block whose timestamp is not before the proof's creation (binary search: about log2(height) requests, once per proof). */
  async #firstBlockSince(since: Date, head: number): Promise<number> {
    const target = BigInt(Math.floor(since.getTime() / 1_000) - blockTimeSlackSeconds);
    let [low, high] = [0, head + 1];
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      const block = await this.call<{ timestamp: string } | null>("eth_getBlockByNumber", [`0x${middle.toString(16)}`, false]);
      if (block === null) throw new ChainConnectionError("bad_response", this.network);
      if (BigInt(block.timestamp) < target) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /**
   * `eth_call` of `data` on the contract `to` at the current head, with at most `gas`: what the
   * contract returned and at which block (with `to` null: what `data` run as init code returned,
   * nothing deployed), or `reverted` (JSON-RPC's "execution reverted", code 3,
   * or -32000 with that message), which is the contract's answer, not a connection failure.
   */
  async callContract(
    to: string | null,
    data: string,
    gas: number,
  ): Promise<{ blockHeight: number; returned: string } | { blockHeight: number; reverted: true }> {
    const head = await this.call<string>("eth_blockNumber", []);
    const { status, body } = await this.endpoint.postJson({
      jsonrpc: "2.0",
      id: this.#nextId++,
      method: "eth_call",
      params: [{ ...(to === null ? {} : { to }), data, gas: `0x${gas.toString(16)}` }, head],
    });
    const answer = body as { result?: unknown; error?: { code?: number; message?: unknown } } | null;
    const blockHeight = Number(BigInt(head));
    if (
      status === 200 &&
      answer?.error !== undefined &&
      (answer.error.code === 3 || (answer.error.code === -32000 && /revert/i.test(String(answer.error.message))))
    ) {
      return { blockHeight, reverted: true };
    }
    if (status !== 200 || typeof answer?.result !== "string") throw new ChainConnectionError("bad_response", this.network);
    return { blockHeight, returned: answer.result };
  }

  /** One JSON-RPC call; a JSON-RPC error is a bad response (its message is the provider's and stays out of errors). */
  async call<T>(method: string, params: unknown[]): Promise<T> {
    const { status, body } = await this.endpoint.postJson({ jsonrpc: "2.0", id: this.#nextId++, method, params });
    const answer = body as { result?: T; error?: { code?: number } } | null;
    if (status !== 200 || typeof answer !== "object" || answer === null || answer.error !== undefined || !("result" in answer)) {
      // Some providers say "rate limited" inside a 200: JSON-RPC -32005 (limit exceeded).
      if (answer?.error?.code === -32005) throw new ChainConnectionError("rate_limited", this.network);
      throw new ChainConnectionError("bad_response", this.network);
    }
    return answer.result as T;
  }
}

function nativePayments(tx: RpcTransaction): ChainPayment[] {
  return tx.to === null ? [] : [{ to: tx.to, amount: BigInt(tx.value), from: [tx.from] }];
}

function tokenPayments(receipt: RpcReceipt, contract: string): ChainPayment[] {
  return receipt.logs
    .filter(
      (log) =>
        !log.removed && log.address.toLowerCase() === contract.toLowerCase() && log.topics.length === 3 && log.topics[0]?.toLowerCase() === transferTopic,
    )
    .map((log) => ({ from: [addressOfTopic(log.topics[1]!)], to: addressOfTopic(log.topics[2]!), amount: log.data === "0x" ? 0n : BigInt(log.data) }));
}

/** An address topic is the 20-byte address left-padded to 32 bytes. */
function addressOfTopic(topic: string): string {
  return `0x${topic.slice(-40)}`;
}

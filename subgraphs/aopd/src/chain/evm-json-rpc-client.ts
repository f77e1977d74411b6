import { ChainConnectionError } from "./chain-connection-error.js";
import type { ChainEndpoint } from "./chain-endpoint.js";
import type { ChainClient, ChainPayment, ChainTransaction } from "./chain-transaction.js";

/** keccak256("Transfer(address,address,uint256)"): the topic of ERC-20 and BEP-20 transfers. */
export const transferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

interface RpcTransaction {
  hash: string;
  from: string;
  to: string | null;
  value: string;
  blockNumber: string | null;
}

interface RpcReceipt {
  status?: string;
  blockNumber: string;
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

  constructor(private readonly endpoint: ChainEndpoint) {
    this.network = endpoint.network;
  }

  async transaction(txId: string, contract: string | null): Promise<ChainTransaction | null> {
    const tx = await this.call<RpcTransaction | null>("eth_getTransactionByHash", [txId]);
    if (tx === null) return null;
    if (tx.blockNumber === null) return { blockHeight: null, confirmations: 0, reverted: false, payments: contract === null ? nativePayments(tx) : [] };
    const [receipt, head] = await Promise.all([this.call<RpcReceipt | null>("eth_getTransactionReceipt", [txId]), this.call<string>("eth_blockNumber", [])]);
    // Between the two calls the block may have been reorganised away: seen again at the next check.
    if (receipt === null) return { blockHeight: null, confirmations: 0, reverted: false, payments: [] };
    const blockHeight = Number(BigInt(receipt.blockNumber));
    const reverted = receipt.status === "0x0";
    return {
      blockHeight,
      confirmations: Math.max(0, Number(BigInt(head)) - blockHeight + 1),
      reverted,
      payments: reverted ? [] : contract === null ? nativePayments(tx) : tokenPayments(receipt, contract),
    };
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
    .filter((log) => !log.removed && log.address.toLowerCase() === contract.toLowerCase() && log.topics.length === 3 && log.topics[0]?.toLowerCase() === transferTopic)
    .map((log) => ({ from: [addressOfTopic(log.topics[1]!)], to: addressOfTopic(log.topics[2]!), amount: log.data === "0x" ? 0n : BigInt(log.data) }));
}

/** An address topic is the 20-byte address left-padded to 32 bytes. */
function addressOfTopic(topic: string): string {
  return `0x${topic.slice(-40)}`;
}

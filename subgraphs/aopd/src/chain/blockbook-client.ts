import { ChainConnectionError } from "./chain-connection-error.js";
import type { ChainEndpoint } from "./chain-endpoint.js";
import type { ChainClient, ChainTransaction } from "./chain-transaction.js";

/** The fields of Blockbook's `GET /api/v2/tx/<txid>` the watcher reads (Blockbook omits empty fields). */
interface BlockbookTx {
  txid?: string;
  vin?: { addresses?: string[]; isAddress?: boolean }[];
  vout?: { value?: string; addresses?: string[]; isAddress?: boolean }[];
  blockHeight?: number;
  confirmations?: number;
}

/**
 * Bitcoin through a Blockbook server's REST API (API V2: amounts are strings in satoshi, empty
 * fields are left out). Blockbook answers an unknown transaction with 400 (some proxies in front
 * of it with 404) and a JSON `error`: that is "not on chain yet", not a failure of the connection.
 */
export class BlockbookClient implements ChainClient {
  readonly network: string;

  constructor(private readonly endpoint: ChainEndpoint) {
    this.network = endpoint.network;
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
}

function isBlockbookTx(body: unknown): body is BlockbookTx {
  return typeof body === "object" && body !== null && Array.isArray((body as BlockbookTx).vin) && Array.isArray((body as BlockbookTx).vout);
}

function transactionOf(tx: BlockbookTx): ChainTransaction {
  const senders = [...new Set((tx.vin ?? []).flatMap((input) => (input.isAddress === false ? [] : (input.addresses ?? []))))];
  const confirmations = tx.confirmations ?? 0;
  return {
    // A mempool transaction has no confirmations and a height of -1 or none at all.
    blockHeight: confirmations > 0 && tx.blockHeight !== undefined && tx.blockHeight > 0 ? tx.blockHeight : null,
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

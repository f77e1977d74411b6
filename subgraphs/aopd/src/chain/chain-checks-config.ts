import type { AssetRegistry, DtiAsset } from "@compliance-graph/dti-assets";
import { BlockbookClient } from "./blockbook-client.js";
import { ChainEndpoint } from "./chain-endpoint.js";
import type { ChainClient } from "./chain-transaction.js";
import { EvmJsonRpcClient } from "./evm-json-rpc-client.js";

/**
 * The networks a chain connection can be configured for, the API each speaks, and how many
 * confirmations count by default: about what exchanges wait for a deposit of a small amount
 * (a reorganisation deeper than this is not a risk worth a test transaction's wait).
 */
export const checkableNetworks = {
  bitcoin: { api: "blockbook", defaultConfirmations: 3 },
  ethereum: { api: "evm-json-rpc", defaultConfirmations: 12 },
  "binance-smart-chain": { api: "evm-json-rpc", defaultConfirmations: 15 },
  polygon: { api: "evm-json-rpc", defaultConfirmations: 64 },
} as const;

export type CheckableNetwork = keyof typeof checkableNetworks;

/** One network's chain connection. */
export interface ChainConnection {
  network: CheckableNetwork;
  client: ChainClient;
  /** Confirmations a transaction needs before the proof is VERIFIED. At least 1. */
  confirmations: number;
}

export interface ChainChecksConfig {
  connections: ChainConnection[];
  /** `AOPD_CHAIN_CHECK_INTERVAL_SECONDS`: how often each replica looks for proofs to check (0: never). @default 10 */
  intervalSeconds: number;
  /** `AOPD_CHAIN_RECHECK_SECONDS`: the least time between two checks of one proof, across replicas. @default 30 */
  recheckSeconds: number;
  /** `AOPD_CHAIN_CHECK_BATCH`: proofs one replica takes per network and pass. @default 100 */
  batchSize: number;
  /** `AOPD_CHAIN_CHECK_CONCURRENCY`: requests in flight per network and replica. @default 4 */
  concurrency: number;
  /**
   * `AOPD_CHAIN_WATCH_PENDING`: whether PENDING proofs are matched by watching their deposit
   * address for the exact amount from the sender (the customer need not report the transaction).
   * @default false
   */
  watchPending: boolean;
}

/** `AOPD_CHAIN_BITCOIN_URL` ... `AOPD_CHAIN_BINANCE_SMART_CHAIN_URL`: the variable prefix of a network. */
export function chainVariable(network: CheckableNetwork): string {
  return `AOPD_CHAIN_${network.toUpperCase().replace(/-/g, "_")}`;
}

/**
 * Reads the chain connections: `<prefix>_URL` (Blockbook's base URL for Bitcoin, a JSON-RPC URL
 * otherwise; may carry an API key, which never leaves `ChainEndpoint`) and
 * `<prefix>_CONFIRMATIONS`. A network without a URL is not checked: its proofs wait for an officer.
 */
export function chainChecksConfigFromEnv(env: NodeJS.ProcessEnv, integer: (name: string, fallback: number) => number): ChainChecksConfig {
  const timeoutMs = Math.max(1, integer("AOPD_CHAIN_REQUEST_TIMEOUT_SECONDS", 10)) * 1_000;
  const watchPending = (env.AOPD_CHAIN_WATCH_PENDING ?? "false").trim().toLowerCase();
  if (watchPending !== "true" && watchPending !== "false") throw new Error("AOPD_CHAIN_WATCH_PENDING must be true or false.");
  const blockbook = { pageSize: integer("AOPD_CHAIN_ADDRESS_PAGE_SIZE", 100), pagesPerPass: integer("AOPD_CHAIN_ADDRESS_PAGES_PER_PASS", 10) };
  const evm = { blocksPerPass: integer("AOPD_CHAIN_PENDING_BLOCKS_PER_PASS", 100) };
  const connections: ChainConnection[] = [];
  for (const [network, { api, defaultConfirmations }] of Object.entries(checkableNetworks) as [
    CheckableNetwork,
    (typeof checkableNetworks)[CheckableNetwork],
  ][]) {
    const prefix = chainVariable(network);
    const url = env[`${prefix}_URL`];
    if (url === undefined || url.trim() === "") continue;
    if (!/^https?:\/\//.test(url.trim())) throw new Error(`${prefix}_URL must be an http or https URL.`);
    const confirmations = integer(`${prefix}_CONFIRMATIONS`, defaultConfirmations);
    if (confirmations < 1) throw new Error(`${prefix}_CONFIRMATIONS must be at least 1.`);
    const endpoint = new ChainEndpoint(network, url.trim(), timeoutMs);
    connections.push({ network, client: api === "blockbook" ? new BlockbookClient(endpoint, blockbook) : new EvmJsonRpcClient(endpoint, evm), confirmations });
  }
  return {
    connections,
    intervalSeconds: integer("AOPD_CHAIN_CHECK_INTERVAL_SECONDS", 10),
    recheckSeconds: integer("AOPD_CHAIN_RECHECK_SECONDS", 30),
    batchSize: Math.max(1, integer("AOPD_CHAIN_CHECK_BATCH", 100)),
    concurrency: Math.max(1, integer("AOPD_CHAIN_CHECK_CONCURRENCY", 4)),
    watchPending: watchPending === "true",
  };
}

/**
 * The connection that checks proofs of an asset, if any: the network's native asset, and its
 * ERC-20/BEP-20 tokens on EVM networks (Omni tokens on Bitcoin are not visible to Blockbook's
 * Bitcoin API and stay with the officer).
 */
export function chainConnectionFor(chain: ChainChecksConfig, asset: DtiAsset): ChainConnection | undefined {
  const connection = chain.connections.find((candidate) => candidate.network === asset.network);
  if (!connection) return undefined;
  if (asset.standard === null) return connection;
  return checkableNetworks[connection.network].api === "evm-json-rpc" && (asset.standard === "ERC-20" || asset.standard === "BEP-20") && asset.contract !== null
    ? connection
    : undefined;
}

/** The codes of the assets one connection checks. */
export function assetsCheckedBy(assets: AssetRegistry, chain: ChainChecksConfig, network: CheckableNetwork): string[] {
  return assets.assets.filter((asset) => chainConnectionFor(chain, asset)?.network === network).map((asset) => asset.code);
}

/** What `/console/config.json` says (see ConsoleSettings in console/server/console-route.ts and docs/console.md). */
export interface ConsoleConfig {
  issuer: string;
  clientId: string;
  explorers: Record<string, { address?: string; tx?: string }>;
}

/** Public explorers per network, used where the operator configures none. */
const defaultExplorers: ConsoleConfig["explorers"] = {
  bitcoin: { address: "https://mempool.space/address/{address}", tx: "https://mempool.space/tx/{tx}" },
  ethereum: { address: "https://etherscan.io/address/{address}", tx: "https://etherscan.io/tx/{tx}" },
  "binance-smart-chain": { address: "https://bscscan.com/address/{address}", tx: "https://bscscan.com/tx/{tx}" },
  polygon: { address: "https://polygonscan.com/address/{address}", tx: "https://polygonscan.com/tx/{tx}" },
  solana: { address: "https://explorer.solana.com/address/{address}", tx: "https://explorer.solana.com/tx/{tx}" },
  tron: { address: "https://tronscan.org/#/address/{address}", tx: "https://tronscan.org/#/transaction/{tx}" },
};

export async function loadConsoleConfig(): Promise<ConsoleConfig> {
  // Absolute: a deep link (/console/proofs/<id>) must not resolve it relative to its own path.
  const response = await fetch("/console/config.json", { cache: "no-cache" });
  if (!response.ok) throw new Error(`config.json answered ${response.status}`);
  const raw = (await response.json()) as Partial<ConsoleConfig>;
  if (typeof raw.issuer !== "string") throw new Error("config.json names no issuer");
  return { issuer: raw.issuer, clientId: raw.clientId ?? "compliance-graph-frontend", explorers: { ...defaultExplorers, ...raw.explorers } };
}

/** The explorer link of an address or transaction on a network, or undefined when none is configured. */
export function explorerUrl(config: ConsoleConfig, network: string | null | undefined, kind: "address" | "tx", value: string): string | undefined {
  const template = network ? config.explorers[network]?.[kind] : undefined;
  return template?.replace(`{${kind}}`, encodeURIComponent(value));
}

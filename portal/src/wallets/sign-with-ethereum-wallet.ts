import type { WalletSignature } from "./discovered-wallet.js";

/** An EIP-1193 provider, as browser wallets inject or announce it (EIP-6963). */
interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

function hexOf(text: string): string {
  return `0x${[...new TextEncoder().encode(text)].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * Asks the wallet for its accounts (`eth_requestAccounts`) and a `personal_sign` (EIP-191)
 * signature of the message, by the account the proof asks for when the wallet holds it.
 */
export async function signWithEthereumWallet(provider: Eip1193Provider, message: string, wanted: string | null): Promise<WalletSignature> {
  const accounts = (await provider.request({ method: "eth_requestAccounts" })) as string[];
  const address = accounts.find((account) => wanted !== null && account.toLowerCase() === wanted.toLowerCase()) ?? accounts[0];
  if (!address) throw new Error("The wallet shared no account.");
  const signature = (await provider.request({ method: "personal_sign", params: [hexOf(message), address] })) as string;
  return { address, signature };
}

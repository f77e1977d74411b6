/** An EIP-1193 provider, as browser wallets (MetaMask and others) inject it. */
interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export function browserWallet(): Eip1193Provider | undefined {
  const candidate = (window as unknown as { ethereum?: Eip1193Provider }).ethereum;
  return candidate && typeof candidate.request === "function" ? candidate : undefined;
}

function hexOf(text: string): string {
  return `0x${[...new TextEncoder().encode(text)].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** Asks the wallet for its account and a `personal_sign` (EIP-191) signature of the message. */
export async function signWithBrowserWallet(provider: Eip1193Provider, message: string): Promise<{ address: string; signature: string }> {
  const accounts = (await provider.request({ method: "eth_requestAccounts" })) as string[];
  const address = accounts[0];
  if (!address) throw new Error("The wallet shared no account.");
  const signature = (await provider.request({ method: "personal_sign", params: [hexOf(message), address] })) as string;
  return { address, signature };
}

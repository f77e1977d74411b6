import type { WalletSignature } from "./discovered-wallet.js";

interface SolanaAccount {
  address: string;
}

/** The two Wallet Standard features the portal uses. */
interface SolanaStandardWallet {
  accounts?: readonly SolanaAccount[];
  features: {
    "standard:connect": { connect(): Promise<{ accounts: readonly SolanaAccount[] }> };
    "solana:signMessage": { signMessage(...inputs: { account: SolanaAccount; message: Uint8Array }[]): Promise<readonly { signature: Uint8Array }[]> };
  };
}

/**
 * `standard:connect`, then `solana:signMessage` of the message's UTF-8 bytes by the account the
 * proof asks for when the wallet holds it. The 64-byte signature goes to the server in base64.
 */
export async function signWithSolanaWallet(wallet: SolanaStandardWallet, message: string, wanted: string | null): Promise<WalletSignature> {
  const { accounts } = await wallet.features["standard:connect"].connect();
  const account = accounts.find((candidate) => candidate.address === wanted) ?? accounts[0];
  if (!account) throw new Error("The wallet shared no account.");
  const [signed] = await wallet.features["solana:signMessage"].signMessage({ account, message: new TextEncoder().encode(message) });
  if (!signed) throw new Error("The wallet returned no signature.");
  return { address: account.address, signature: btoa(String.fromCharCode(...signed.signature)) };
}

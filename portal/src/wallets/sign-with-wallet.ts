import type { DiscoveredWallet, WalletSignature } from "./discovered-wallet.js";

/**
 * Signs the message with the picked wallet. Each chain's code is a chunk of its own, loaded only
 * now (a dynamic import): the first page carries the discovery alone.
 */
export async function signWithWallet(wallet: DiscoveredWallet, message: string, wanted: string | null): Promise<WalletSignature> {
  switch (wallet.family) {
    case "ethereum":
      return (await import("./sign-with-ethereum-wallet.js")).signWithEthereumWallet(wallet.provider as never, message, wanted);
    case "solana":
      return (await import("./sign-with-solana-wallet.js")).signWithSolanaWallet(wallet.provider as never, message, wanted);
    case "tron":
      return (await import("./sign-with-tron-wallet.js")).signWithTronWallet(wallet.provider as never, message);
    case "bitcoin":
      return (await import("./sign-with-bitcoin-wallet.js")).signWithBitcoinWallet(wallet.provider as never, message, wanted);
  }
}

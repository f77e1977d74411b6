/** The chains a browser wallet can sign for, by the proof's asset's address family. */
export type WalletFamily = "ethereum" | "solana" | "tron" | "bitcoin";

/** A wallet found in this browser, as the picker lists it. */
export interface DiscoveredWallet {
  /** Unique on the page: the interface and the wallet's own id. */
  key: string;
  /** As the wallet announced it ("MetaMask", "Phantom"), or the interface's usual name. */
  name: string;
  /** A `data:image/...` URI the wallet announced, or none. */
  icon: string | undefined;
  family: WalletFamily;
  /** The wallet's own object: an EIP-1193 provider, a Wallet Standard wallet, `tronWeb`, a sats-connect provider. */
  provider: unknown;
}

/** What signing with a wallet yields: the account it signed with and the signature as the server takes it. */
export interface WalletSignature {
  address: string;
  signature: string;
}

/**
 * Only inline images: a wallet's announced icon is shown on the page, and a URL there would make
 * the page fetch from wherever a script in the page said (the page's policy blocks it anyway).
 */
export function inlineIcon(icon: unknown): string | undefined {
  return typeof icon === "string" && /^data:image\/(svg\+xml|png|jpeg|webp|gif)[;,]/.test(icon) ? icon : undefined;
}

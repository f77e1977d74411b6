/**
 * How addresses of an asset are written and signed. Assets of one family share address validation
 * and signature schemes (every EVM chain uses Ethereum addresses, for instance).
 */
export type AddressFamily = "bitcoin" | "ethereum" | "solana" | "tron" | "lightning";

export const addressFamilies: readonly AddressFamily[] = ["bitcoin", "ethereum", "solana", "tron", "lightning"];

export interface DtiAsset {
  /** The enum value: `DTI` followed by the 9-character Digital Token Identifier. */
  code: string;
  /** The registry's long name. */
  name: string;
  /** A ticker-like short name, when the registry has one. */
  symbol: string | null;
  /** The network the asset lives on; null when imported and not yet described. */
  network: string | null;
  /** Decimal places of the lowest denomination (8 for Bitcoin's satoshi); null when unknown. */
  decimals: number | null;
  addressFamily: AddressFamily | null;
}

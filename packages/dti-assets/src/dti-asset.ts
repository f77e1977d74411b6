/**
 * How addresses of an asset are written and signed. Assets of one family share address validation
 * and signature schemes (every EVM chain uses Ethereum addresses, for instance).
 */
export type AddressFamily = "bitcoin" | "ethereum" | "solana" | "tron" | "lightning";

export const addressFamilies: readonly AddressFamily[] = ["bitcoin", "ethereum", "solana", "tron", "lightning"];

export interface DtiAsset {
  /** The enum value: `DTI` followed by the 9-character Digital Token Identifier. */
  code: string;
  /** The asset's name: the registry's current long name, or the specification's for the codes it names. */
  name: string;
  /** A ticker-like short name, when the registry has one. */
  symbol: string | null;
  /** The network the asset lives on; null when imported and not yet described. */
  network: string | null;
  /** The token standard (ERC-20, BEP-20, SPL-Token, TRC-20, ...); null for a network's native asset. */
  standard: string | null;
  /** Where the token is defined on its network: contract address, mint, or token id; null for a native asset. */
  contract: string | null;
  /** Decimal places of the lowest denomination (8 for Bitcoin's satoshi); null when not known for certain. */
  decimals: number | null;
  addressFamily: AddressFamily | null;
  /** The registry's name, where it disagrees with ours (the specification's); absent otherwise. */
  registryName?: string;
}

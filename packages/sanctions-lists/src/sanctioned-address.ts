/**
 * The address families a listed address can be screened on: those of `AopdAsset` whose addresses the
 * sanctions lists name, and `bnb-beacon`, the retired BNB Beacon Chain (`bnb1...`), where no asset of
 * ours lives but whose address a secp256k1 key behind an EVM or TRON proof also controls (see
 * `familyOfOfacEntry`). Lightning has no addresses on the list (invoices and node keys are not listed).
 */
export type ScreenedFamily = "bitcoin" | "ethereum" | "tron" | "solana" | "bnb-beacon";

export const screenedFamilies: readonly ScreenedFamily[] = ["bitcoin", "ethereum", "tron", "solana", "bnb-beacon"];

/** One "Digital Currency Address - <ASSET>" entry of a sanctions list. */
export interface SanctionedAddress {
  /** OFAC's asset code (`XBT`, `ETH`, `USDT`, ...), as the list writes it. */
  ofacAsset: string;
  /** The address exactly as the list spells it (EVM addresses in a checksum case that is not reliable). */
  address: string;
  /**
   * The address family of ours it is screened on, or null when it maps to no network of `AopdAsset`
   * (Litecoin, Monero, ...): kept and counted, never matched.
   */
  family: ScreenedFamily | null;
  /** The SDN entry's `uid` (sdn.xml) or `FixedRef` (sdn_advanced.xml); null from the per-asset text lists. */
  sdnUid: string | null;
  /** The SDN entry's name; null from the per-asset text lists, which carry none. */
  sdnName: string | null;
}

import type { SanctionedAddress } from "./sanctioned-address.js";

/** The name every OFAC list version is recorded under. */
export const ofacSdnListName = "OFAC SDN";

/** One version of a sanctions list, read and ready to import. */
export interface SanctionsListVersion {
  list: typeof ofacSdnListName;
  /** When the list was published, `YYYY-MM-DD`. */
  publishedOn: string;
  /** What it was read from: the format and the file or folder names (no directories). */
  source: string;
  /** SHA-256 (hex) of its entries in a canonical order: the same list read twice has the same hash, whatever the order of its files. */
  contentHash: string;
  addresses: SanctionedAddress[];
}

/**
 * What one import may hold. The importer keeps the addresses of one list in memory (the SDN list
 * has about 800 today) and streams everything else, so these bound its memory whatever file it is
 * given.
 */
export const sanctionsListLimits = {
  /** Addresses in one list version. @default 1_000_000 */
  maxAddresses: 1_000_000,
  /** Characters of one address. @default 128 */
  maxAddressLength: 128,
  /** Characters of an element's text kept by the XML readers (names, dates, ids). @default 4_096 */
  maxTextLength: 4_096,
} as const;

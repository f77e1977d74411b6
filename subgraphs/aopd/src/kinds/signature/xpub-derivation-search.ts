import type { XpubDerivation } from "../../ownership/index.js";

/**
 * The one seam through which signature acceptance searches an xpub for an address. The search can
 * cost a second of CPU (see `findXpubDerivation`), so it is asynchronous: `createXpubSearchPool`
 * runs it off the request thread. Throws `OwnershipInputError` for an xpub or address that cannot
 * be read; resolves to null when the address is not among the searched children.
 */
export type XpubDerivationSearch = (input: { xpub: string; address: string; maxIndex: number }) => Promise<XpubDerivation | null>;

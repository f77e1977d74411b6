export { type SanctionedAddress, type ScreenedFamily, screenedFamilies } from "./sanctioned-address.js";
export { familyOfOfacEntry } from "./family-of-ofac-entry.js";
export { ofacSdnListName, type SanctionsListVersion } from "./sanctions-list-version.js";
export { readSanctionsList, type ReadSanctionsListOptions } from "./read-sanctions-list.js";
export { SanctionsListError } from "./sanctions-list-error.js";
export { sanctionsListLimits } from "./sanctions-list-limits.js";
export { bundledSanctionsLists, bundledSanctionsListsFolder, newestBundledSanctionsList } from "./bundled-sanctions-lists.js";

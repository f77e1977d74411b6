import { familyOfOfacEntry } from "./family-of-ofac-entry.js";
import type { SanctionedAddress } from "./sanctioned-address.js";
import { SanctionsListError } from "./sanctions-list-error.js";
import { sanctionsListLimits } from "./sanctions-list-limits.js";

/**
 * Collects a list's addresses within `sanctionsListLimits`, refusing an address that no network
 * could have (empty, too long, with spaces or control characters) rather than storing it.
 */
export class AddressCollector {
  readonly addresses: SanctionedAddress[] = [];

  add(where: string, ofacAsset: string, address: string, sdnUid: string | null, sdnName: string | null): void {
    const trimmed = address.trim();
    if (trimmed.length === 0) return;
    if (trimmed.length > sanctionsListLimits.maxAddressLength || !/^[\x21-\x7e]+$/.test(trimmed)) {
      throw new SanctionsListError(
        `${where}: ${JSON.stringify(trimmed.slice(0, 40))} is not an address (at most ${sanctionsListLimits.maxAddressLength} printable ASCII characters without spaces).`,
      );
    }
    if (this.addresses.length >= sanctionsListLimits.maxAddresses) {
      throw new SanctionsListError(`${where}: more than ${sanctionsListLimits.maxAddresses} addresses; one list version may hold at most that many.`);
    }
    this.addresses.push({
      ofacAsset: detached(ofacAsset),
      address: detached(trimmed),
      family: familyOfOfacEntry(ofacAsset, trimmed),
      sdnUid: sdnUid === null ? null : detached(sdnUid),
      sdnName: sdnName === null ? null : detached(sdnName),
    });
  }
}

/**
 * A copy of `text` that holds its own characters. A string cut from a larger one (what the XML
 * reader's texts are: slices of the 64 KiB chunk they arrived in) keeps that whole chunk alive in
 * V8; kept for the whole import, 3,000 addresses of a large file kept 3,000 chunks (about 190 MB).
 */
function detached(text: string): string {
  return Buffer.from(text, "utf8").toString("utf8");
}

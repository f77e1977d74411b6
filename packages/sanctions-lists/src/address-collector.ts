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
    this.addresses.push({ ofacAsset, address: trimmed, family: familyOfOfacEntry(ofacAsset, trimmed), sdnUid, sdnName });
  }
}

import { ownershipFailure, type OwnershipFailure } from "./ownership-failure.js";
import {
  parseBitcoinAddress,
  type BitcoinAddress,
  type BitcoinAddressFormat,
  type BitcoinNetwork,
} from "./parse-bitcoin-address.js";
import { parseEthereumAddress } from "./parse-ethereum-address.js";

export type AssetFamily = "bitcoin" | "ethereum";

/**
 * What a proof request may demand of an address. `format` null (or absent) accepts any format:
 * every Bitcoin format, or the one standard Ethereum format (the deprecated `ANY` and `STANDARD`
 * enum values map to null). `network` applies to Bitcoin only; Ethereum addresses are the same on
 * every chain.
 */
export interface AddressExpectation {
  assetFamily: AssetFamily;
  address: string;
  format?: BitcoinAddressFormat | null;
  network?: BitcoinNetwork | null;
}

/** The address's format (null for Ethereum's single format) or why it does not meet the request. */
export function checkAddressFormat(
  expectation: AddressExpectation,
): { readonly ok: true; readonly format: BitcoinAddressFormat | null } | OwnershipFailure {
  const { assetFamily, address, format, network } = expectation;
  if (assetFamily === "ethereum") {
    const parsed = parseEthereumAddress(address);
    if (!parsed.ok) return parsed;
    if (format != null) {
      return ownershipFailure("FORMAT_MISMATCH", `Ethereum addresses have no ${format} format; request the standard format.`);
    }
    return { ok: true, format: null };
  }
  if (assetFamily !== "bitcoin") {
    return ownershipFailure("INVALID_ADDRESS", "Only Bitcoin and Ethereum addresses are supported.");
  }
  const parsed = parseBitcoinAddress(address);
  if (!parsed.ok) return parsed;
  if (network != null && !bitcoinNetworkMatches(parsed, network)) {
    return ownershipFailure("FORMAT_MISMATCH", `The address is not a ${network} address.`);
  }
  if (format != null && parsed.format !== format) {
    return ownershipFailure(
      "FORMAT_MISMATCH",
      `The address is a ${parsed.format} address, but a ${format} address was requested.`,
    );
  }
  return { ok: true, format: parsed.format };
}

/** True when the address is valid for its asset family and meets the requested format and network. */
export function addressMatchesFormat(expectation: AddressExpectation): boolean {
  return checkAddressFormat(expectation).ok;
}

/** Base58 testnet version bytes are also regtest's, so such an address belongs to both networks. */
export function bitcoinNetworkMatches(address: BitcoinAddress, network: BitcoinNetwork): boolean {
  if (address.network === network) return true;
  return address.encoding === "base58check" && address.network === "testnet" && network === "regtest";
}

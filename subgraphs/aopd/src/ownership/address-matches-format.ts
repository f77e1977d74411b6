import { ownershipFailure, type OwnershipFailure } from "./ownership-failure.js";
import { parseBitcoinAddress, type BitcoinAddress, type BitcoinAddressFormat, type BitcoinNetwork } from "./parse-bitcoin-address.js";
import { parseEthereumAddress } from "./parse-ethereum-address.js";
import { parseSolanaAddress } from "./parse-solana-address.js";
import { parseTronAddress } from "./parse-tron-address.js";

/** The address families whose proofs of control this service verifies (Lightning's is refused: see docs/proof-ingestion.md). */
export type AssetFamily = "bitcoin" | "ethereum" | "solana" | "tron";

export const verifiableFamilies: readonly AssetFamily[] = ["bitcoin", "ethereum", "solana", "tron"];

/** The one address format of each family that has one; Bitcoin's formats are in `BitcoinAddressFormat`. */
const singleFormatFamilies = {
  ethereum: { name: "Ethereum", parse: parseEthereumAddress },
  solana: { name: "Solana", parse: parseSolanaAddress },
  tron: { name: "TRON", parse: parseTronAddress },
} as const;

/**
 * What a proof request may demand of an address. `format` null (or absent) accepts any format:
 * every Bitcoin format, or the one format of the other families (the deprecated `ANY` and
 * `STANDARD` enum values map to null). `network` applies to Bitcoin only; Ethereum addresses are
 * the same on every EVM chain.
 */
export interface AddressExpectation {
  assetFamily: AssetFamily;
  address: string;
  format?: BitcoinAddressFormat | null;
  network?: BitcoinNetwork | null;
}

/** The address's format (null for the single-format families) or why it does not meet the request. */
export function checkAddressFormat(expectation: AddressExpectation): { readonly ok: true; readonly format: BitcoinAddressFormat | null } | OwnershipFailure {
  const { assetFamily, address, format, network } = expectation;
  if (assetFamily !== "bitcoin") {
    const family = singleFormatFamilies[assetFamily];
    if (!family) return ownershipFailure("INVALID_ADDRESS", "Only Bitcoin, Ethereum (and EVM), Solana and TRON addresses are supported.");
    const parsed = family.parse(address);
    if (!parsed.ok) return parsed;
    if (format != null) {
      return ownershipFailure("FORMAT_MISMATCH", `${family.name} addresses have no ${format} format; request the standard format (null).`);
    }
    return { ok: true, format: null };
  }
  const parsed = parseBitcoinAddress(address);
  if (!parsed.ok) return parsed;
  if (network != null && !bitcoinNetworkMatches(parsed, network)) {
    return ownershipFailure("FORMAT_MISMATCH", `The address is not a ${network} address.`);
  }
  if (format != null && parsed.format !== format) {
    return ownershipFailure("FORMAT_MISMATCH", `The address is a ${parsed.format} address, but a ${format} address was requested.`);
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

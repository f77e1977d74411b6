import type { DtiAsset } from "@compliance-graph/dti-assets";
import { UserInputError } from "@compliance-graph/errors";
import type { AopdConfig } from "../aopd-config.js";
import type { AddressFormat } from "../database/database-schema.js";
import { checkAddressFormat, verifiableFamilies, type AssetFamily, type BitcoinAddressFormat } from "../ownership/index.js";

/**
 * The checks every proof write applies to its input before anything is stored. Each failure is a
 * `UserInputError` naming the field (as a path from the mutation argument) and what is allowed.
 */

const controlCharacters = /\p{Cc}/u;

export function requireCustomerId(field: string, value: string): string {
  const customerId = value.trim();
  if (customerId === "" || customerId.length > 128 || controlCharacters.test(customerId)) {
    throw new UserInputError(field, "must be 1 to 128 printable characters.");
  }
  return customerId;
}

export function optionalComment(field: string, value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value.length > 2_000) throw new UserInputError(field, `has ${value.length} characters; at most 2000 are allowed.`);
  return value;
}

export function requireAsset(field: string, config: AopdConfig, code: string): DtiAsset {
  const asset = config.assets.get(code);
  if (!asset) throw new UserInputError(field, `${code} is not a known asset.`);
  return asset;
}

/** A bare GraphQL enum can name formats AOPP cannot use; the deprecated ANY and STANDARD mean "any" (stored as null). */
export function storedFormat(format: AddressFormat | null | undefined): Exclude<AddressFormat, "ANY" | "STANDARD"> | null {
  return format === null || format === undefined || format === "ANY" || format === "STANDARD" ? null : format;
}

/**
 * An address valid for the asset: checksum, network and (for Bitcoin) format are checked for the
 * address families this service can verify; a token is held at its network's ordinary address, so
 * it gets the same check. Other families get a shape check, since their proofs are assessed by
 * people. A refusal names the asset and its network, then what an address of it looks like.
 */
export function requireAddress(field: string, config: AopdConfig, asset: DtiAsset, address: string, format: BitcoinAddressFormat | null = null): string {
  const family = asset.addressFamily;
  if (family !== null && (verifiableFamilies as readonly string[]).includes(family)) {
    const checked = checkAddressFormat({
      assetFamily: family as AssetFamily,
      address,
      format: family === "bitcoin" ? format : null,
      network: family === "bitcoin" ? config.bitcoinNetwork : null,
    });
    if (!checked.ok) throw new UserInputError(field, `is not an address of ${assetLabel(asset)}: ${checked.reason}`);
    return address;
  }
  if (!/^[A-Za-z0-9:@._-]{8,128}$/.test(address)) {
    throw new UserInputError(field, `is not an address of ${asset.name}: expected 8 to 128 letters, digits or ":@._-".`);
  }
  return address;
}

/** "USD Tether (TRC-20 on tron)", "Bitcoin (bitcoin)": which asset, and on which network. */
function assetLabel(asset: DtiAsset): string {
  const where = [asset.standard, asset.network].filter(Boolean).join(" on ");
  return where ? `${asset.name} (${where})` : asset.name;
}

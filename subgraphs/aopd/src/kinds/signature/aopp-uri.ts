import type { AopdConfig } from "../../aopd-config.js";
import type { AddressFormat, ProofRow } from "../../database/database-schema.js";
import { credentialUrls } from "../../ingestion/credential-urls.js";

export type AoppAsset = "btc" | "eth";
export type AoppFormat = "p2pkh" | "p2wpkh" | "p2sh" | "p2tr" | "any" | "standard";

/**
 * The `aopp:` URI a wallet opens: version 0, the message to sign, the asset, the expected address
 * format and the callback that receives the signature (AOPP, https://aopp.group).
 */
export function buildAoppUri(request: { message: string; asset: AoppAsset; format: AoppFormat; callbackUrl: string }): string {
  const query = new URLSearchParams({ v: "0", msg: request.message, asset: request.asset, format: request.format, callback: request.callbackUrl });
  return `aopp:?${query.toString().replace(/\+/g, "%20")}`;
}

/** AOPP's asset for an address family: the protocol knows Bitcoin and Ethereum-style addresses only. */
export function aoppAssetOf(addressFamily: string | null | undefined): AoppAsset | undefined {
  return addressFamily === "bitcoin" ? "btc" : addressFamily === "ethereum" ? "eth" : undefined;
}

/** The AOPP format parameter for a requested address format; undefined when AOPP cannot express it. */
export function aoppFormatOf(asset: AoppAsset, format: AddressFormat | null | undefined): AoppFormat | undefined {
  if (asset === "eth") return format === null || format === undefined || format === "STANDARD" ? "standard" : undefined;
  switch (format ?? "ANY") {
    case "ANY":
      return "any";
    case "P2PKH":
      return "p2pkh";
    case "P2SH":
      return "p2sh";
    case "P2WPKH":
      return "p2wpkh";
    case "P2TR":
      return "p2tr";
    default:
      return undefined;
  }
}

/** The AOPP URI of a signature proof, rebuilt from the credential the caller presented; null where AOPP cannot express its asset or format. */
export function aoppUriOf(
  config: Pick<AopdConfig, "assets" | "callbackBaseUrl" | "portalUrl">,
  row: Pick<ProofRow, "asset" | "format" | "message">,
  token: string,
): string | null {
  const aoppAsset = aoppAssetOf(config.assets.get(row.asset)?.addressFamily);
  const format = aoppAsset ? aoppFormatOf(aoppAsset, row.format) : undefined;
  if (!aoppAsset || !format) return null;
  return buildAoppUri({ message: row.message ?? "", asset: aoppAsset, format, callbackUrl: credentialUrls(config, token).callbackUrl });
}

import type { DtiAsset } from "@compliance-graph/dti-assets";
import type { PublicProofView } from "@compliance-graph/portal-contract";
import type { AopdConfig } from "../aopd-config.js";
import type { ProofRow } from "../database/database-schema.js";
import { aoppAssetOf, aoppFormatOf, buildAoppUri } from "../ingestion/aopp-uri.js";
import { credentialUrls } from "../ingestion/credential-urls.js";

// What the holder of a proof's one-time credential may see is built field by field from an
// allow-list (`toPublicProofView`), so a column added to the table later is not published by
// accident; never the customer id, the comment, the credential's hash or anything of another proof.
export type { PublicProofView };

/** The columns a public view reads; `proofColumnsOfView` selects exactly these. */
export type PublicProofSource = Pick<
  ProofRow,
  | "id"
  | "kind"
  | "status"
  | "asset"
  | "created_at"
  | "updated_at"
  | "due_at"
  | "address"
  | "format"
  | "message"
  | "xpub_required"
  | "amount"
  | "deposit_address"
  | "tx_id"
  | "media_content_type"
  | "media_byte_size"
  | "media_sha256"
  | "media_uploaded_at"
>;

export const publicProofColumns = [
  "id",
  "kind",
  "status",
  "asset",
  "created_at",
  "updated_at",
  "due_at",
  "address",
  "format",
  "message",
  "xpub_required",
  "amount",
  "deposit_address",
  "tx_id",
  "media_content_type",
  "media_byte_size",
  "media_sha256",
  "media_uploaded_at",
] as const satisfies readonly (keyof PublicProofSource)[];

const mediaContentTypes = ["image/png", "image/jpeg", "image/webp", "video/mp4", "video/webm"] as const;

// EIP-155 chain ids of the Ethereum-family networks the asset registry names (EIP-681 `@chain_id`).
const ethereumChainIds: Record<string, number> = { ethereum: 1, polygon: 137, "binance-smart-chain": 56 };

/** `amount` (lowest denomination) in whole units, without trailing zeros: 10042 sat is "0.00010042". */
export function amountInUnits(amount: string, decimals: number | null): string | null {
  if (decimals === null) return null;
  const digits = amount.replace(/^0+(?=\d)/, "").padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}

/**
 * A link a wallet opens to pay the deposit: BIP-21 for bitcoin, EIP-681 on an Ethereum-family
 * network (a token's as a call of its `transfer`, never as a native payment of the same number),
 * Solana Pay for SOL and SPL tokens (whole units, so only with known decimals); null otherwise
 * (TRON has no such standard, and Omni tokens need a wallet that builds Omni transactions).
 */
function paymentUri(asset: DtiAsset | undefined, depositAddress: string, amount: string): string | null {
  if (!asset) return null;
  if (asset.addressFamily === "bitcoin" && asset.standard === null) {
    return `bitcoin:${depositAddress}?amount=${amountInUnits(amount, asset.decimals ?? 8)}`;
  }
  if (asset.addressFamily === "ethereum") {
    const chainId = asset.network === null ? undefined : ethereumChainIds[asset.network];
    const chain = chainId === undefined ? "" : `@${chainId}`;
    if (asset.standard === null) return `ethereum:${depositAddress}${chain}?value=${amount}`;
    return `ethereum:${asset.contract}${chain}/transfer?address=${depositAddress}&uint256=${amount}`;
  }
  if (asset.addressFamily === "solana" && asset.decimals !== null) {
    const token = asset.standard === null ? "" : `&spl-token=${asset.contract}`;
    return `solana:${depositAddress}?amount=${amountInUnits(amount, asset.decimals)}${token}`;
  }
  return null;
}

/** The AOPP URI of a signature proof, rebuilt from the credential the caller presented. */
export function aoppUriOf(config: AopdConfig, row: Pick<ProofRow, "asset" | "format" | "message">, token: string): string | null {
  const aoppAsset = aoppAssetOf(config.assets.get(row.asset)?.addressFamily);
  const format = aoppAsset ? aoppFormatOf(aoppAsset, row.format) : undefined;
  if (!aoppAsset || !format) return null;
  return buildAoppUri({ message: row.message ?? "", asset: aoppAsset, format, callbackUrl: credentialUrls(config, token).callbackUrl });
}

export function toPublicProofView(config: AopdConfig, row: PublicProofSource, token: string): PublicProofView {
  const asset = config.assets.get(row.asset);
  const iso = (date: Date | string) => new Date(date).toISOString();
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    asset: {
      code: row.asset,
      name: asset?.name ?? row.asset,
      symbol: asset?.symbol ?? null,
      network: asset?.network ?? null,
      addressFamily: asset?.addressFamily ?? null,
      decimals: asset?.decimals ?? null,
    },
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    dueAt: row.due_at === null ? null : iso(row.due_at),
    address: row.address,
    signature:
      row.kind === "signature"
        ? { format: row.format, message: row.message ?? "", xpubRequired: row.xpub_required, aoppUri: aoppUriOf(config, row, token) }
        : null,
    satoshi:
      row.kind === "satoshi"
        ? {
            amount: String(row.amount),
            amountInUnits: amountInUnits(String(row.amount), asset?.decimals ?? null),
            depositAddress: row.deposit_address ?? "",
            paymentUri: paymentUri(asset, row.deposit_address ?? "", String(row.amount)),
            txId: row.tx_id,
          }
        : null,
    media:
      row.kind === "media"
        ? {
            accepts: { contentTypes: [...mediaContentTypes], maxImageBytes: config.mediaMaxImageBytes, maxVideoBytes: config.mediaMaxVideoBytes },
            uploaded:
              row.media_content_type === null || row.media_sha256 === null || row.media_uploaded_at === null
                ? null
                : { contentType: row.media_content_type, byteSize: Number(row.media_byte_size), sha256: row.media_sha256, uploadedAt: iso(row.media_uploaded_at) },
          }
        : null,
  };
}

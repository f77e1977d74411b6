import { explorerUrl } from "./console-config.js";
import type { ConsoleContext } from "./console-context.js";
import { h } from "@compliance-graph/web-dom";
import { kindOf, type Proof } from "./proof-fields.js";
import { formatNumber, t } from "./translations.js";

/** "Tether (USDT)", or the DTI code when the asset is unknown to `configuration`. */
export function assetLabel(context: ConsoleContext, code: string): string {
  const asset = context.assets.get(code);
  if (!asset) return code;
  return asset.symbol ? `${asset.name} (${asset.symbol})` : asset.name;
}

/** The address, linked to the block explorer of its asset's network where one is configured. */
export function addressCell(context: ConsoleContext, proof: Pick<Proof, "address" | "asset">): Node {
  if (!proof.address) return h("span", {}, t("proof.noAddress"));
  const href = explorerUrl(context.config, context.assets.get(proof.asset)?.network, "address", proof.address);
  return href
    ? h("a", { href, target: "_blank", rel: "noopener noreferrer", "aria-label": t("proof.explorerLink", { address: proof.address }) }, proof.address)
    : h("span", {}, proof.address);
}

/** A whole-unit amount from the lowest denomination, when the asset's decimals are known. */
export function wholeUnits(context: ConsoleContext, asset: string, amount: string): string | undefined {
  const decimals = context.assets.get(asset)?.decimals;
  if (decimals === null || decimals === undefined) return undefined;
  const padded = amount.padStart(decimals + 1, "0");
  const whole = `${padded.slice(0, padded.length - decimals)}${decimals ? `.${padded.slice(-decimals)}` : ""}`.replace(/\.?0+$/, "");
  return `${whole} ${context.assets.get(asset)?.symbol ?? ""}`.trim();
}

/** What the proof rests on, in a few words: the signed message, the test amount and transaction, the file. */
export function evidenceSummary(context: ConsoleContext, proof: Proof): string {
  switch (kindOf(proof)) {
    case "signature":
      return proof.signature ? t("evidence.signed", { format: proof.format ?? "" }).trim() : t("evidence.awaitingSignature");
    case "satoshi": {
      const amount = wholeUnits(context, proof.asset, proof.amount ?? "0") ?? `${proof.amount}`;
      return proof.txId ? t("evidence.satoshiSent", { amount, tx: `${proof.txId.slice(0, 10)}…` }) : t("evidence.satoshiAwaiting", { amount });
    }
    case "media":
      return proof.contentType
        ? t("evidence.file", { type: proof.contentType, size: formatNumber(Math.round((proof.byteSize ?? 0) / 1024)) })
        : t("evidence.awaitingFile");
  }
}

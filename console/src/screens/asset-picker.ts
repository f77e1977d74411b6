import { fieldId, h } from "@compliance-graph/web-dom";
import type { Asset } from "../proof-fields.js";
import { t, textOr } from "../translations.js";

/** The words an asset is found by and shown with: name, symbol, network, token standard and DTI code. */
export function assetDescription(asset: Asset): string {
  const network = asset.network ? textOr(`network.${asset.network}`, asset.network) : t("asset.unknownNetwork");
  const standard = asset.standard ?? t("asset.native");
  return `${asset.name}${asset.symbol ? ` (${asset.symbol})` : ""} · ${network} · ${standard}`;
}

/**
 * The asset picker: a filter and the list it narrows. Many assets share a name or symbol (USDT on
 * Ethereum, TRON and others), so each is shown with its network and token standard, the filter
 * matches every word against all of them ("usdt tron"), and the officer picks one row: typing a
 * symbol never picks a network by itself unless one asset is left.
 */
export function assetPicker(
  assets: readonly Asset[],
  onChange: (asset: Asset | undefined) => void,
): { element: HTMLElement; list: HTMLSelectElement; selected(): Asset | undefined } {
  const filterId = fieldId("asset-filter");
  const listId = fieldId("asset");
  const countId = fieldId("asset-count");
  const sorted = [...assets].sort((a, b) => a.name.localeCompare(b.name) || (a.network ?? "").localeCompare(b.network ?? ""));
  const searchable = new Map(sorted.map((asset) => [asset, `${assetDescription(asset)} ${asset.asset} ${asset.network ?? ""}`.toLowerCase()]));
  const filter = h("input", { id: filterId, type: "search", autocomplete: "off", "aria-controls": listId, "aria-describedby": countId }) as HTMLInputElement;
  const list = h("select", { id: listId, name: "asset", size: "6", required: true }) as HTMLSelectElement;
  const count = h("p", { id: countId, class: "hint", role: "status" });
  const byCode = new Map<string, Asset>(sorted.map((asset) => [asset.asset, asset]));
  const selected = () => byCode.get(list.value);
  const fill = (notify: boolean) => {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const previous = list.value;
    const shown = sorted.filter((asset) => words.every((word) => searchable.get(asset)!.includes(word)));
    list.replaceChildren(...shown.map((asset) => h("option", { value: asset.asset, selected: asset.asset === previous }, assetDescription(asset))));
    if (shown.length === 1) list.value = shown[0]!.asset;
    count.textContent = t("asset.matches", { count: shown.length });
    if (notify) onChange(selected());
  };
  filter.addEventListener("input", () => fill(true));
  list.addEventListener("change", () => onChange(selected()));
  fill(false);
  return {
    element: h(
      "div",
      { class: "asset-picker" },
      h("label", { for: filterId }, t("request.assetFilter")),
      filter,
      count,
      h("label", { for: listId }, t("request.asset")),
      list,
    ),
    list,
    selected,
  };
}

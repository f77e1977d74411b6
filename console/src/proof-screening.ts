import { h } from "@compliance-graph/web-dom";
import type { Proof, ProofScreening } from "./proof-fields.js";
import { formatDate, t, textOr } from "./translations.js";

/**
 * How a proof's sanctions screening shows (docs/screening.md). A LISTED address is the one thing an
 * officer must not overlook while deciding, so wherever a proof appears its screening is a marked
 * badge, and the queue and the detail name the list entry it matched and the list version that
 * listed it: the officer sees who is sanctioned and since which publication without another click.
 */

/** CLEAR, LISTED or NOT_SCREENED as a badge; LISTED is drawn as a warning (style.css) and says so in words too. */
export function screeningBadge(screening: ProofScreening): HTMLElement {
  return h("span", { class: `screening screening-${screening.status}`, "data-screening": screening.status }, t(`screening.${screening.status}`));
}

/**
 * The matched entry in one line: the SDN name and uid where the list carried them, the asset code
 * and the address as listed. A list version read from OFAC's per-asset text lists names no party:
 * then the entry is named by its SDN uid, or said to come from the list's addresses of that asset.
 */
export function matchedEntryText(screening: ProofScreening): string {
  const entry = screening.matchedEntry;
  if (!entry) return "";
  const who = entry.sdnName
    ? entry.sdnUid
      ? `${entry.sdnName} (SDN ${entry.sdnUid})`
      : entry.sdnName
    : entry.sdnUid
      ? t("screening.entryByUid", { uid: entry.sdnUid })
      : t("screening.entryOfAssetList", { asset: entry.asset });
  return t("screening.entryLine", { who, asset: entry.asset, address: entry.address });
}

/** The badge and, for a LISTED proof, the entry and list version beneath it: the review queue's cell. */
export function screeningCellWithEntry(screening: ProofScreening): HTMLElement {
  if (screening.status !== "LISTED") return screeningBadge(screening);
  return h(
    "div",
    { class: "screening-cell" },
    screeningBadge(screening),
    h("div", { class: "listed-entry" }, matchedEntryText(screening)),
    h("div", {}, t("screening.versionLine", { list: screening.list ?? "", version: screening.listVersion ?? "" })),
  );
}

/** The detail's warning at the top of the page for a LISTED proof; nothing otherwise. */
export function listedNotice(proof: Pick<Proof, "screening">): HTMLElement | undefined {
  const { screening } = proof;
  if (screening.status !== "LISTED") return undefined;
  return h(
    "div",
    { class: "listed-notice", role: "alert", "aria-label": t("screening.listedNoticeLabel") },
    h("strong", {}, t("screening.listedHeadline", { list: screening.list ?? "", version: screening.listVersion ?? "" })),
    h("p", {}, matchedEntryText(screening)),
  );
}

/** The detail's screening rows: status, list, version, when, and the matched entry's parts. */
export function screeningRows(screening: ProofScreening): [string, Node | string | null | undefined][] {
  const entry = screening.matchedEntry;
  return [
    [t("screening.result"), screeningBadge(screening)],
    [t("screening.list"), screening.list],
    [t("screening.listVersion"), screening.listVersion],
    [t("screening.screenedAt"), formatDate(screening.screenedAt)],
    [t("screening.sdnName"), entry?.sdnName],
    [t("screening.sdnUid"), entry?.sdnUid],
    [t("screening.listedAsset"), entry?.asset],
    [t("screening.listedAddress"), entry?.address],
    [
      t("screening.matchedForm"),
      screening.matchedForm ? `${textOr(`screening.form.${screening.matchedForm}`, screening.matchedForm)}: ${screening.matchedAddress ?? ""}` : null,
    ],
  ];
}

/** One change of a proof's screening onto or off the list, from its audit entry or its event. */
export interface ScreeningChangeRecord {
  at: string;
  to: string;
  listVersion: string | null;
}

/**
 * The screening's history in the detail's screening card: each change onto or off the list (a new
 * list version that names the address, or a delisting that clears it), oldest first, with the
 * version that made it; "none yet" when the result never changed.
 */
export function screeningHistory(changes: readonly ScreeningChangeRecord[]): HTMLElement {
  if (changes.length === 0) return h("span", {}, t("screening.historyNone"));
  return h(
    "ol",
    { class: "plain", "aria-label": t("screening.history") },
    ...[...changes]
      .sort((a, b) => a.at.localeCompare(b.at))
      .map((change) =>
        h("li", {}, t("screening.historyLine", { when: formatDate(change.at), status: t(`screening.${change.to}`), version: change.listVersion ?? "" })),
      ),
  );
}

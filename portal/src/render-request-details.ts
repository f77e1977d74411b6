import { h } from "@compliance-graph/web-dom";
import type { PageState } from "./page-state.js";
import type { PublicProofView } from "@compliance-graph/portal-contract";

function dueTime(view: PublicProofView, language: string): string | undefined {
  if (!view.dueAt) return undefined;
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(view.dueAt));
}

/** "What is asked": the asset, network, address format, address, xpub and due time of the proof. */
export function renderRequestDetails(state: PageState, view: PublicProofView): HTMLElement {
  const { t } = state;
  const rows: [string, string][] = [[t("request.asset"), view.asset.symbol ? `${view.asset.name} (${view.asset.symbol})` : view.asset.name]];
  const network = view.asset.network;
  if (network) rows.push([t("request.network"), t.has(`network.${network}`) ? t(`network.${network}`) : network]);
  if (view.signature) {
    rows.push([t("request.format"), view.signature.format ?? t("request.anyFormat")]);
    rows.push([t("request.address"), view.address ?? t("request.anyAddress")]);
    rows.push([t("request.xpub"), view.signature.xpubRequired ? t("request.xpubRequired") : t("request.xpubNotRequired")]);
  } else if (view.media && view.address) {
    rows.push([t("request.address"), view.address]);
  } else if (view.address) {
    rows.push([t("request.sender"), view.address]);
  }
  const due = dueTime(view, state.t.language);
  if (due) rows.push([t("request.due"), due]);
  return h(
    "section",
    { "aria-labelledby": "request-heading" },
    h("h2", { id: "request-heading" }, t("request.heading")),
    h("dl", {}, ...rows.flatMap(([term, value]) => [h("dt", {}, term), h("dd", { class: "mono" }, value)])),
    h("p", { class: `status status-${view.status}`, role: "status" }, `${t("status.label")}: ${t(`status.${view.status}`)}`),
  );
}

import { h } from "@compliance-graph/web-dom";
import { finalStatuses, isCustomerDone, type PageActions, type PageState } from "./page-state.js";
import { renderRequestDetails } from "./render-request-details.js";
import { renderMediaProof } from "./render-media-proof.js";
import { renderSatoshiProof } from "./render-satoshi-proof.js";
import { renderSignatureProof } from "./render-signature-proof.js";

function notice(state: PageState): HTMLElement | null {
  if (!state.notice) return null;
  return h("p", { class: state.notice.kind, role: state.notice.kind === "error" ? "alert" : "status" }, state.notice.text);
}

/** Why the page shows no form: an unknown link, an outage, or a proof that is no longer open. */
function outcome(state: PageState): HTMLElement | null {
  const { t, view } = state;
  if (state.failure === "unknown") return h("section", { role: "alert" }, h("h2", {}, t("link.invalid")), h("p", {}, t("link.invalidHelp")));
  if (state.failure === "unavailable") return h("section", { role: "alert" }, h("h2", {}, t("link.unavailable")), h("p", {}, t("link.unavailableHelp")));
  if (!view) return null;
  const success = isCustomerDone(view);
  if (!success && !finalStatuses.has(view.status)) return null;
  // A received file is not a received transaction: media proofs have their own words for SUBMITTED.
  const outcomeKey = view.kind === "media" && view.status === "SUBMITTED" ? "media.SUBMITTED" : view.status;
  return h(
    "section",
    { "aria-labelledby": "outcome-heading" },
    h("h2", { id: "outcome-heading", class: success ? "success" : "error" }, t(`outcome.${outcomeKey}`)),
    h("p", {}, t(`outcome.${outcomeKey}.help`)),
    success && state.redirect ? h("p", {}, h("a", { class: "button", href: state.redirect.toString() }, t("outcome.return", { site: state.redirect.host }))) : null,
  );
}

/** The whole page for the current state; called again after every change. */
export async function renderPage(root: HTMLElement, state: PageState, actions: PageActions): Promise<void> {
  const { t, view } = state;
  document.documentElement.lang = t.language;
  document.title = t("title");
  const content: (HTMLElement | null)[] = [h("h1", {}, t("title")), h("p", {}, t("intro"))];
  if (view) content.push(renderRequestDetails(state, view));
  content.push(outcome(state), notice(state));
  if (view?.status === "PENDING") {
    const form = { signature: renderSignatureProof, satoshi: renderSatoshiProof, media: renderMediaProof }[view.kind];
    content.push(...(await form(state, view, actions)));
  }
  root.replaceChildren(...content.filter((node): node is HTMLElement => node !== null));
}

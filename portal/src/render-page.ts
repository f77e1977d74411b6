import { h } from "@compliance-graph/web-dom";
import { outcomeStatuses, isCustomerDone, type PageActions, type PageState } from "./page-state.js";
import { renderRequestDetails } from "./render-request-details.js";
import { renderMediaProof } from "./render-media-proof.js";
import { renderSatoshiProof } from "./render-satoshi-proof.js";
import { renderSignatureProof } from "./render-signature-proof.js";
import { textWithLink } from "./text-with-link.js";
import { tickingText } from "./ticking-text.js";

/** `data-reveal` marks what an action produced: the page scrolls it into view and focuses it (main.ts). */
function notice(state: PageState): HTMLElement | null {
  if (!state.notice) return null;
  const { kind, text, retryAt } = state.notice;
  const element = h("p", { class: `notice ${kind}`, role: kind === "error" ? "alert" : "status", "data-reveal": "notice" }, text);
  // Only a rate limit has a `retryAt`: its text is said again each second, in the plural form the number needs.
  if (retryAt !== undefined)
    tickingText(element, retryAt, (seconds) =>
      seconds > 0 ? state.t("error.rate_limited", { seconds: String(seconds), count: String(seconds) }) : state.t("error.rate_limited.over"),
    );
  return element;
}

/** Whom to ask for a new link, when the operator named someone (AOPD_PORTAL_CONTACT). */
function contact(state: PageState): HTMLElement | null {
  const configured = state.config.contact;
  return configured ? textWithLink(state.t(`contact.${configured.kind}`), "contact", configured) : null;
}

/** Why the page shows no form: an unknown link, a rate limit, an outage, or a proof that is no longer open. */
function outcome(state: PageState, actions: PageActions): HTMLElement | null {
  const { t, view } = state;
  const section = (...children: (HTMLElement | null)[]) =>
    h("section", { role: "alert", "aria-labelledby": "outcome-heading", "data-reveal": "outcome" }, ...children);
  if (state.failure === "unknown") return section(h("h2", { id: "outcome-heading" }, t("link.invalid")), h("p", {}, t("link.invalidHelp")), contact(state));
  if (state.failure === "rate_limited") {
    // A rate limit is not an outage: it says how long to wait, counts down, then loads again by itself.
    const wait = h("p", {});
    tickingText(
      wait,
      state.retryAt ?? Date.now(),
      (seconds) => t("link.rateLimitedHelp", { seconds: String(seconds), count: String(seconds) }),
      () => actions.reload(),
    );
    return section(h("h2", { id: "outcome-heading" }, t("link.rateLimited")), wait);
  }
  if (state.failure === "unavailable") return section(h("h2", { id: "outcome-heading" }, t("link.unavailable")), h("p", {}, t("link.unavailableHelp")));
  if (!view) return null;
  const success = isCustomerDone(view);
  if (!success && !outcomeStatuses.has(view.status)) return null;
  // A received file or signature is not a received transaction: media and signature proofs have their own words for SUBMITTED
  // (a signature left for review says no more than any review does: never why).
  const outcomeKey = (view.kind === "media" || view.kind === "signature") && view.status === "SUBMITTED" ? `${view.kind}.SUBMITTED` : view.status;
  return h(
    "section",
    { "aria-labelledby": "outcome-heading", "data-reveal": "outcome" },
    h("h2", { id: "outcome-heading", class: success ? "success" : "error" }, t(`outcome.${outcomeKey}`)),
    h("p", {}, t(`outcome.${outcomeKey}.help`)),
    success ? null : contact(state),
    success && state.redirect
      ? h("p", {}, h("a", { class: "button", href: state.redirect.toString() }, t("outcome.return", { site: state.redirect.host })))
      : null,
  );
}

/** The whole page for the current state; called again after every change. */
export async function renderPage(root: HTMLElement, state: PageState, actions: PageActions): Promise<void> {
  const { t, view } = state;
  document.documentElement.lang = t.language;
  document.title = t("title");
  const content: (HTMLElement | null)[] = [h("h1", {}, t("title")), h("p", {}, t("intro"))];
  if (view) content.push(renderRequestDetails(state, view));
  content.push(outcome(state, actions), notice(state));
  if (view?.status === "PENDING") {
    const form = { signature: renderSignatureProof, satoshi: renderSatoshiProof, media: renderMediaProof }[view.kind];
    content.push(...(await form(state, view, actions)));
  }
  root.replaceChildren(...content.filter((node): node is HTMLElement => node !== null));
}

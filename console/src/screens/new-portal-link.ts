import { h } from "@compliance-graph/web-dom";
import type { ConsoleContext } from "../console-context.js";
import type { Role } from "../graphql/api-values.js";
import { graphql } from "../graphql/graphql.js";
import type { Proof } from "../proof-fields.js";
import { t } from "../translations.js";
import { proofLinks } from "./proof-links.js";
import { refusalText } from "./proposal-settlement.js";

/** The role that issues a new link: the one that requests proofs (docs/authorization.md). */
export const newPortalLinkRole: Role = "proofs:write";

const issuePortalLink = graphql(`
  mutation IssuePortalLink($id: ID!) {
    aopd {
      issuePortalLink(id: $id) {
        portalUrl
        aoppUri
      }
    }
  }
`);

/**
 * A pending proof's new portal link (`issuePortalLink`), for an officer who no longer has the one
 * the request showed: the first cannot be shown again (only its hash is kept). The new link
 * replaces it, so the step says so and asks once more before the links the customer may hold
 * stop working; then the new link, copy buttons and QR code, as the request form shows them.
 *
 * A proof past its due time is still PENDING until the expiry job next runs, but the API refuses
 * it a new link (CONFLICT): the card then says why instead of offering a step that must fail, and
 * so does a card opened before the due time once it has passed.
 */
export function newPortalLink(context: ConsoleContext, proof: Pick<Proof, "id" | "dueAt">): HTMLElement {
  const title = t("portalLink.title");
  const section = h("section", { class: "decide", "aria-label": title });
  const outcome = h("p", { role: "alert", class: "error" });
  const start = h("button", { type: "button" }, t("portalLink.issue")) as HTMLButtonElement;
  const overdue = () => Boolean(proof.dueAt) && Date.parse(proof.dueAt!) <= Date.now();
  const showStart = () =>
    section.replaceChildren(h("h2", {}, title), ...(overdue() ? [h("p", {}, t("portalLink.overdue"))] : [h("p", {}, t("portalLink.explain")), start]));
  start.addEventListener("click", () => {
    if (overdue()) return showStart();
    const confirm = h("button", { type: "button" }, t("portalLink.confirm")) as HTMLButtonElement;
    const back = h("button", { type: "button", class: "secondary", onclick: showStart }, t("decide.back"));
    confirm.addEventListener("click", async () => {
      if (overdue()) return showStart();
      confirm.disabled = true;
      try {
        const data = await context.api.graphql(issuePortalLink, { id: proof.id });
        const { portalUrl, aoppUri } = data.aopd.issuePortalLink;
        section.replaceChildren(
          h("h2", {}, title),
          h("p", { role: "status" }, t("portalLink.issued")),
          ...(await proofLinks(portalUrl, aoppUri)),
          h("p", {}, h("button", { type: "button", class: "secondary", onclick: showStart }, t("portalLink.done"))),
        );
      } catch (error) {
        outcome.textContent = refusalText(error);
        confirm.disabled = false;
      }
    });
    section.replaceChildren(
      h("h2", {}, title),
      h("div", { role: "group", "aria-label": t("portalLink.confirmTitle") }, h("p", {}, t("portalLink.confirmText")), confirm, back, outcome),
    );
    confirm.focus();
  });
  showStart();
  return section;
}

import type { ConsoleContext } from "../console-context.js";
import { reopenProof } from "../decide-proof.js";
import { fieldId, h } from "@compliance-graph/web-dom";
import type { Proof } from "../proof-fields.js";
import { t } from "../translations.js";
import { refusalText } from "./proposal-settlement.js";

/**
 * Corrections: a proof an officer decided (Satoshi, media, a signature proof left for review) is
 * reopened with the reason in words (required), after a confirmation step; it goes back to review
 * and the decision set aside stays in its history.
 * Under four eyes the same button proposes the reopening, and the words say so: the decision stays
 * in force until a second officer confirms. `done` re-reads the proof.
 */
export function reopenForm(context: ConsoleContext, proof: Proof, fourEyes: boolean, done: () => void): HTMLElement {
  const words = fourEyes ? "reopen.fourEyes" : "reopen";
  const reasonId = fieldId("reopen-reason");
  const reason = h("input", { id: reasonId, name: "reason", maxlength: "2000" }) as HTMLInputElement;
  const message = h("p", { role: "alert", class: "error" });
  const start = h("button", { type: "button" }, t(`${words}.review`)) as HTMLButtonElement;
  const section = h("section", { class: "decide", "aria-label": t("reopen.title") });
  const showForm = () =>
    section.replaceChildren(
      h("h2", {}, t("reopen.title")),
      h("p", {}, t(`${words}.explain`)),
      h("div", { class: "field" }, h("label", { for: reasonId }, t("reopen.reason")), reason),
      start,
      message,
    );
  start.addEventListener("click", () => {
    const text = reason.value.trim();
    if (!text) {
      message.textContent = t("reopen.reasonRequired");
      reason.focus();
      return;
    }
    message.textContent = "";
    const confirm = h("button", { type: "button" }, t(`${words}.confirm`)) as HTMLButtonElement;
    const back = h("button", { type: "button", onclick: showForm }, t("decide.back"));
    const outcome = h("p", { role: "alert", class: "error" });
    confirm.addEventListener("click", async () => {
      confirm.disabled = true;
      try {
        await reopenProof(context.api, proof.id, text);
        done();
      } catch (error) {
        outcome.textContent = refusalText(error);
        confirm.disabled = false;
      }
    });
    section.replaceChildren(
      h("h2", {}, t("reopen.title")),
      h(
        "div",
        { role: "group", "aria-label": t(`${words}.confirmTitle`) },
        h("p", {}, t(`${words}.confirmText`, { id: proof.id })),
        h("blockquote", {}, text),
        confirm,
        back,
        outcome,
      ),
    );
    confirm.focus();
  });
  showForm();
  return section;
}

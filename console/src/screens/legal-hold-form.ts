import type { ConsoleContext } from "../console-context.js";
import { fieldId, h } from "@compliance-graph/web-dom";
import { changeLegalHold, legalHoldReasonLimit, type LegalHold } from "../legal-hold.js";
import { t } from "../translations.js";
import { refusalText } from "./proposal-settlement.js";

/**
 * Places a legal hold on the proof, or lifts the one it has, with the reason in words (required),
 * after a confirmation step that repeats what will happen and why: a hold keeps a record past its
 * retention, and lifting one lets it be deleted, so neither is a single click. `done` re-reads the proof.
 */
export function legalHoldForm(context: ConsoleContext, proofId: string, hold: LegalHold | null, done: () => void): HTMLElement {
  const place = hold === null;
  const title = t(place ? "legalHold.placeTitle" : "legalHold.liftTitle");
  const reasonId = fieldId("legal-hold-reason");
  const reason = h("input", { id: reasonId, name: "reason", maxlength: String(legalHoldReasonLimit) }) as HTMLInputElement;
  const message = h("p", { role: "alert", class: "error" });
  const start = h("button", { type: "button" }, t(place ? "legalHold.reviewPlace" : "legalHold.reviewLift")) as HTMLButtonElement;
  const section = h("section", { class: "decide", "aria-label": title });
  const showForm = () =>
    section.replaceChildren(
      h("h2", {}, title),
      h("p", {}, t(place ? "legalHold.placeExplain" : "legalHold.liftExplain")),
      h("div", { class: "field" }, h("label", { for: reasonId }, t(place ? "legalHold.reason" : "legalHold.liftReason")), reason),
      start,
      message,
    );
  start.addEventListener("click", () => {
    const text = reason.value.trim();
    if (!text) {
      message.textContent = t("legalHold.reasonRequired");
      reason.focus();
      return;
    }
    message.textContent = "";
    const confirm = h("button", { type: "button" }, t(place ? "legalHold.confirmPlace" : "legalHold.confirmLift")) as HTMLButtonElement;
    const back = h("button", { type: "button", onclick: showForm }, t("decide.back"));
    const outcome = h("p", { role: "alert", class: "error" });
    confirm.addEventListener("click", async () => {
      confirm.disabled = true;
      try {
        await changeLegalHold(context.api, proofId, place, text);
        done();
      } catch (error) {
        outcome.textContent = refusalText(error);
        confirm.disabled = false;
      }
    });
    section.replaceChildren(
      h("h2", {}, title),
      h(
        "div",
        { role: "group", "aria-label": t("legalHold.confirmTitle") },
        h("p", {}, t(place ? "legalHold.confirmPlaceText" : "legalHold.confirmLiftText", { id: proofId })),
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

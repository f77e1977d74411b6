import { h } from "@compliance-graph/web-dom";
import type { Translator } from "./translations.js";

/**
 * A button that copies `text`, with its outcome said right beside it (a status the screen reader
 * reads): on a phone a confirmation at the top of the page would be out of sight, and a copy the
 * browser refused (no clipboard permission, an insecure context) must not look like success.
 */
export function copyButton(t: Translator, label: string, text: string): HTMLElement {
  const outcome = h("span", { class: "copy-outcome", role: "status" });
  const button = h("button", { type: "button", class: "secondary" }, label);
  button.addEventListener("click", () => {
    const copied = navigator.clipboard?.writeText(text) ?? Promise.reject(new Error("no clipboard"));
    copied.then(
      () => (outcome.textContent = t("form.copied")),
      () => (outcome.textContent = t("form.copyFailed")),
    );
  });
  return h("span", { class: "copy" }, button, " ", outcome);
}

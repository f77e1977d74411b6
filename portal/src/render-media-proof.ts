import { fieldId, h } from "@compliance-graph/web-dom";
import type { PageActions, PageState } from "./page-state.js";
import type { PublicProofView } from "@compliance-graph/portal-contract";

const megabytes = (bytes: number) => String(Math.floor(bytes / 1_000_000));

/** The upload of a screenshot or video showing the address in the customer's wallet, with its progress. */
export function renderMediaProof(state: PageState, view: PublicProofView, actions: PageActions): HTMLElement[] {
  const { t } = state;
  const accepts = view.media!.accepts;
  const fileId = fieldId("media");
  const hintId = fieldId("media-hint");
  const missingId = fieldId("media-missing");
  const input = h("input", {
    id: fileId,
    name: "media",
    type: "file",
    accept: accepts.contentTypes.join(","),
    required: true,
    "aria-describedby": hintId,
  }) as HTMLInputElement;
  // Said beside the field, not only by focus: a tap on Upload with no file must not look like nothing happened.
  const missing = h("p", { id: missingId, class: "notice error", role: "alert", hidden: true }, t("media.noFile"));
  input.addEventListener("change", () => {
    missing.hidden = true;
    input.removeAttribute("aria-invalid");
    input.setAttribute("aria-describedby", hintId);
  });
  const progress =
    state.uploadProgress === undefined
      ? null
      : h("p", {}, h("label", {}, `${t("media.progress")} `, h("progress", { max: "100", value: String(Math.round(state.uploadProgress * 100)) })));
  return [
    h(
      "section",
      { "aria-labelledby": "media-heading" },
      h("h2", { id: "media-heading" }, t("media.heading")),
      h("p", {}, t("media.instructions")),
      h(
        "form",
        {
          novalidate: true,
          onsubmit: (event) => {
            event.preventDefault();
            const file = input.files?.[0];
            if (file) return actions.uploadMedia(file);
            missing.hidden = false;
            input.setAttribute("aria-invalid", "true");
            input.setAttribute("aria-describedby", `${missingId} ${hintId}`);
            input.focus();
          },
        },
        h("label", { for: fileId }, t("media.file")),
        input,
        missing,
        h("p", { id: hintId, class: "hint" }, t("media.accepts", { imageMb: megabytes(accepts.maxImageBytes), videoMb: megabytes(accepts.maxVideoBytes) })),
        h("button", { type: "submit", disabled: state.busy }, t("media.upload")),
        progress,
      ),
    ),
  ];
}

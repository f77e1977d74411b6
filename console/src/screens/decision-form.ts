import type { ConsoleContext } from "../console-context.js";
import { decideProof, reasonInWords, reasonLabel, type Decision, type DecisionReason } from "../decide-proof.js";
import { fieldId, h } from "@compliance-graph/web-dom";
import { ApiError } from "../gateway-api.js";
import { AopdAssessment } from "../graphql/api-values.js";
import type { Proof, ProofKind } from "../proof-fields.js";
import { t } from "../translations.js";

/**
 * VERIFIED or FAILED, a reason (required for FAILED; "other" needs words) and the officer's own
 * comment, then a confirmation step naming the proof and the decision before anything is sent.
 * `done` re-reads the proof, which then shows its new status and who decided.
 */
export function decisionForm(context: ConsoleContext, proof: Proof, kind: ProofKind, done: () => void): HTMLElement {
  const commentId = fieldId("comment");
  const reasonId = fieldId("reason");
  const reasonTextId = fieldId("reason-text");
  const message = h("p", { role: "alert", class: "error" });
  const form = h(
    "form",
    { "aria-label": t("decide.title") },
    h(
      "fieldset",
      {},
      h("legend", {}, t("decide.decision")),
      // The API's assessments (`AopdAssessment`), each named as the status it gives the proof.
      ...AopdAssessment.map((value) => h("label", {}, h("input", { type: "radio", name: "decision", value, required: true }), t(`status.${value}`))),
    ),
    h(
      "div",
      { class: "field" },
      h("label", { for: reasonId }, t("decide.reason")),
      h(
        "select",
        { id: reasonId, name: "reason" },
        h("option", { value: "" }, t("decide.reasonNone")),
        ...(context.proofKinds.get(kind)?.decisionReasons ?? []).map((code) => h("option", { value: code }, reasonLabel(code))),
      ),
    ),
    h(
      "div",
      { class: "field" },
      h("label", { for: reasonTextId }, t("decide.reasonText")),
      h("input", { id: reasonTextId, name: "reasonText", maxlength: "2000" }),
    ),
    h(
      "div",
      { class: "field" },
      h("label", { for: commentId }, t("decide.comment")),
      h("textarea", { id: commentId, name: "comment", maxlength: "2000", rows: "3" }),
    ),
    message,
    h("button", { type: "submit" }, t("decide.review")),
  ) as HTMLFormElement;
  const section = h("section", { class: "decide", "aria-label": t("decide.title") }, h("h2", {}, t("decide.title")), form);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const decision = String(data.get("decision") ?? "") as Decision;
    const comment = String(data.get("comment") ?? "").trim();
    const reason = (String(data.get("reason") ?? "") || null) as DecisionReason | null;
    const reasonText = String(data.get("reasonText") ?? "").trim();
    const refuse = (text: string, field: string) => {
      message.textContent = text;
      (form.querySelector(`#${field}`) as HTMLElement).focus();
    };
    if (decision === "FAILED" && !reason) return refuse(t("decide.reasonRequired"), reasonId);
    if (reason === reasonInWords && !reasonText) return refuse(t("decide.reasonTextRequired"), reasonTextId);
    message.textContent = "";
    // Under four eyes the decision is only proposed: the step says so rather than promising a status.
    const proposing = context.proofKinds.get(kind)?.fourEyes === true;
    const confirm = h("button", { type: "button" }, t(proposing ? "decide.confirmProposal" : "decide.confirm")) as HTMLButtonElement;
    const back = h("button", { type: "button" }, t("decide.back"));
    const outcome = h("p", { role: "alert", class: "error" });
    const step = h(
      "div",
      { role: "group", "aria-label": t(proposing ? "decide.confirmProposalTitle" : "decide.confirmTitle") },
      h("p", {}, t(proposing ? "decide.confirmProposalText" : "decide.confirmText", { id: proof.id, decision: t(`status.${decision}`) })),
      reason ? h("p", {}, reasonLabel(reason)) : null,
      reasonText ? h("p", {}, reasonText) : null,
      comment ? h("blockquote", {}, comment) : null,
      confirm,
      back,
      outcome,
    );
    back.addEventListener("click", () => section.replaceChildren(h("h2", {}, t("decide.title")), form));
    confirm.addEventListener("click", async () => {
      confirm.disabled = true;
      try {
        await decideProof(context.api, kind, proof.id, { decision, reason, reasonText, comment });
        done();
      } catch (error) {
        outcome.textContent = error instanceof ApiError ? t("common.refused", { message: error.message }) : t("common.failed");
        confirm.disabled = false;
      }
    });
    section.replaceChildren(h("h2", {}, t("decide.title")), step);
    confirm.focus();
  });
  return section;
}

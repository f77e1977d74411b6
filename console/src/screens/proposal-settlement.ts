import type { ConsoleContext } from "../console-context.js";
import { settleProposal } from "../decide-proof.js";
import { fieldId, h } from "@compliance-graph/web-dom";
import { ApiError } from "../gateway-api.js";
import type { Proof, ProofDecision } from "../proof-fields.js";
import { t } from "../translations.js";

/** The refusal as an officer should read it: the proposer's own attempt is four eyes at work, not a fault. */
export function refusalText(error: unknown): string {
  if (!(error instanceof ApiError)) return t("common.failed");
  if (error.errors[0]?.extensions?.proposedBy !== undefined) return t("fourEyes.ownProposal", { message: error.message });
  return t("common.refused", { message: error.message });
}

/**
 * Four eyes: a proposal awaiting a second officer, confirmed (with the confirmer's own comment) or
 * rejected (with the reason, required). The proposer is told beforehand that the proposal is theirs;
 * the controls stay, and should they still try, the API's CONFLICT is shown as what it means. `done`
 * re-reads the proof.
 */
export function proposalSettlement(context: ConsoleContext, proof: Proof, proposal: ProofDecision, done: () => void): HTMLElement {
  const commentId = fieldId("confirm-comment");
  const reasonId = fieldId("reject-reason");
  const message = h("p", { role: "alert", class: "error" });
  const comment = h("textarea", { id: commentId, name: "comment", maxlength: "2000", rows: "2" }) as HTMLTextAreaElement;
  const reason = h("input", { id: reasonId, name: "reason", maxlength: "2000" }) as HTMLInputElement;
  const confirm = h("button", { type: "button" }, t("fourEyes.confirm")) as HTMLButtonElement;
  const reject = h("button", { type: "button" }, t("fourEyes.reject")) as HTMLButtonElement;
  const own = proposal.decider.subject === context.session.user.profile.sub;
  const settle = async (settlement: Parameters<typeof settleProposal>[2]) => {
    message.textContent = "";
    confirm.disabled = reject.disabled = true;
    try {
      await settleProposal(context.api, proof.id, settlement);
      done();
    } catch (error) {
      message.textContent = refusalText(error);
    } finally {
      confirm.disabled = reject.disabled = false;
    }
  };
  confirm.addEventListener("click", () => void settle({ confirm: true, comment: comment.value.trim() }));
  reject.addEventListener("click", () => {
    if (!reason.value.trim()) {
      message.textContent = t("fourEyes.rejectReasonRequired");
      reason.focus();
      return;
    }
    void settle({ confirm: false, reason: reason.value.trim() });
  });
  return h(
    "section",
    { class: "decide", "aria-label": t("fourEyes.title") },
    h("h2", {}, t("fourEyes.title")),
    h("p", { class: own ? "note" : undefined }, own ? t("fourEyes.yours") : t("fourEyes.awaiting")),
    h("div", { class: "field" }, h("label", { for: commentId }, t("fourEyes.comment")), comment),
    confirm,
    h("div", { class: "field" }, h("label", { for: reasonId }, t("fourEyes.rejectReason")), reason),
    reject,
    message,
  );
}

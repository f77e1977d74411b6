import { copyButton } from "./copy-button.js";
import { fieldId, h } from "@compliance-graph/web-dom";
import type { PageActions, PageState } from "./page-state.js";
import type { PublicProofView } from "@compliance-graph/portal-contract";
import { qrCode } from "./qr-code.js";

/** The test transaction: exact amount, deposit address, a payment QR code and the transaction id field. */
export async function renderSatoshiProof(state: PageState, view: PublicProofView, actions: PageActions): Promise<HTMLElement[]> {
  const { t } = state;
  const satoshi = view.satoshi!;
  const unit = view.asset.symbol ?? view.asset.name;
  const txId = fieldId("txid");
  const input = h("input", {
    id: txId,
    name: "txId",
    autocomplete: "off",
    spellcheck: "false",
    required: true,
    oninput: (event) => (state.form.txId = (event.target as HTMLInputElement).value),
  }) as HTMLInputElement;
  input.value = state.form.txId;
  return [
    h(
      "section",
      { "aria-labelledby": "payment-heading" },
      h("h2", { id: "payment-heading" }, t("satoshi.heading")),
      h("p", {}, t("satoshi.instructions")),
      h(
        "dl",
        {},
        h("dt", {}, t("satoshi.amount")),
        h("dd", { class: "mono" }, satoshi.amountInUnits ? `${satoshi.amountInUnits} ${unit}` : satoshi.amount),
        h("dt", {}, t("satoshi.lowestDenomination")),
        h("dd", { class: "mono" }, satoshi.amount),
        h("dt", {}, t("satoshi.depositAddress")),
        h("dd", { class: "mono" }, satoshi.depositAddress),
      ),
      copyButton(t, t("satoshi.copyAddress"), satoshi.depositAddress),
      satoshi.paymentUri ? await qrCode(satoshi.paymentUri, t("satoshi.qr")) : null,
    ),
    h(
      "section",
      { "aria-labelledby": "tx-heading" },
      h("h2", { id: "tx-heading" }, t("satoshi.txHeading")),
      h(
        "form",
        {
          novalidate: true,
          onsubmit: (event) => {
            event.preventDefault();
            actions.submitTransaction(state.form.txId.trim());
          },
        },
        h("label", { for: txId }, t("form.txId")),
        input,
        h("button", { type: "submit", disabled: state.busy }, t("form.submitTx")),
      ),
    ),
  ];
}

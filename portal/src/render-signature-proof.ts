import { copyButton } from "./copy-button.js";
import { fieldId, h } from "@compliance-graph/web-dom";
import type { PageActions, PageState } from "./page-state.js";
import type { PublicProofView } from "@compliance-graph/portal-contract";
import { qrCode } from "./qr-code.js";
import { renderPsbtOffer } from "./render-psbt-offer.js";
import type { DiscoveredWallet } from "./wallets/discovered-wallet.js";

/** A labelled field whose value lives in `state.form`, so a re-render keeps what was typed. */
function field(
  state: PageState,
  name: "address" | "signature" | "xpub",
  label: string,
  options: { multiline?: boolean; readonly?: boolean; value?: string; hint?: string } = {},
): HTMLElement[] {
  const id = fieldId(name);
  const value = options.value ?? state.form[name];
  const control = h(options.multiline ? "textarea" : "input", {
    id,
    name,
    autocomplete: "off",
    spellcheck: "false",
    readonly: options.readonly,
    required: name !== "xpub" || undefined,
    "aria-describedby": options.hint ? `${id}-hint` : undefined,
    oninput: (event) => (state.form[name] = (event.target as HTMLInputElement).value),
  }) as HTMLInputElement;
  control.value = value;
  return [h("label", { for: id }, label), control, options.hint ? h("small", { id: `${id}-hint` }, options.hint) : null].filter(
    (node): node is HTMLElement => node !== null,
  );
}

/**
 * The wallet picker: one button per browser wallet of the proof's chain, by the name and icon the
 * wallet announced. Null when the browser has none: "Other wallets" (pasting) is always there.
 */
function walletPicker(state: PageState, view: PublicProofView, actions: PageActions): HTMLElement | null {
  const { t } = state;
  const wallets = state.wallets().filter((wallet: DiscoveredWallet) => wallet.family === view.asset.addressFamily);
  if (wallets.length === 0) return null;
  return h(
    "section",
    { "aria-labelledby": "wallets-heading" },
    h("h2", { id: "wallets-heading" }, t("wallet.heading")),
    h("p", {}, t("wallet.instructions")),
    h(
      "ul",
      { class: "wallets" },
      ...wallets.map((wallet) =>
        h(
          "li",
          {},
          h(
            "button",
            { type: "button", class: "wallet", disabled: state.busy, onclick: () => actions.signWithWallet(wallet) },
            wallet.icon ? h("img", { src: wallet.icon, alt: "", width: "24", height: "24" }) : null,
            t("wallet.signWith", { name: wallet.name || t("wallet.browserWallet") }),
          ),
        ),
      ),
    ),
  );
}

/**
 * "Open in wallet" (AOPP), the browser wallets of the proof's chain, a Bitcoin vault's PSBT, and
 * "Other wallets" (paste a signature, or the signed PSBT).
 */
export async function renderSignatureProof(state: PageState, view: PublicProofView, actions: PageActions): Promise<HTMLElement[]> {
  const { t } = state;
  const signature = view.signature!;
  const sections: HTMLElement[] = [];
  if (signature.aoppUri) {
    sections.push(
      h(
        "section",
        { "aria-labelledby": "aopp-heading" },
        h("h2", { id: "aopp-heading" }, t("aopp.heading")),
        h("p", {}, t("aopp.instructions")),
        h("a", { class: "button", href: signature.aoppUri }, t("aopp.open")),
        await qrCode(signature.aoppUri, t("aopp.qr")),
      ),
    );
  }
  const messageId = fieldId("message");
  const form = h(
    "form",
    {
      novalidate: true,
      onsubmit: (event) => {
        event.preventDefault();
        actions.submitSignature({
          address: view.address ? undefined : state.form.address.trim(),
          signature: state.form.signature.trim(),
          xpub: state.form.xpub.trim() || undefined,
        });
      },
    },
    ...field(state, "address", t("form.address"), view.address ? { readonly: true, value: view.address } : { hint: t("form.addressHint") }),
    ...field(state, "signature", t("form.signature"), { multiline: true, hint: t("form.signatureHint") }),
    ...(signature.xpubRequired || view.asset.addressFamily === "bitcoin"
      ? field(state, "xpub", signature.xpubRequired ? t("form.xpubRequired") : t("form.xpubOptional"))
      : []),
    h("button", { type: "submit", disabled: state.busy }, t("form.submit")),
  );
  const picker = walletPicker(state, view, actions);
  if (picker) sections.push(picker);
  if (signature.psbt) sections.push(await renderPsbtOffer(state, signature.psbt));
  sections.push(
    h(
      "section",
      { "aria-labelledby": "manual-heading" },
      h("h2", { id: "manual-heading" }, t("manual.heading")),
      h("p", {}, t("signature.instructions")),
      h("label", { for: messageId }, t("form.message")),
      h("textarea", { id: messageId, readonly: true, class: "mono" }, signature.message),
      copyButton(t, t("form.copy"), signature.message),
      ...(signature.signInMessage
        ? [
            h("label", { for: fieldId("sign-in") }, t("signIn.label")),
            h("textarea", { id: fieldId("sign-in"), readonly: true, class: "mono" }, signature.signInMessage),
            copyButton(t, t("signIn.copy"), signature.signInMessage),
          ]
        : []),
      form,
    ),
  );
  return sections;
}

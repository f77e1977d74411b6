import { fieldId, h } from "@compliance-graph/web-dom";
import { copyButton } from "./copy-button.js";
import type { PageState } from "./page-state.js";
import { qrCode } from "./qr-code.js";

/** The bytes every PSBT file starts with: "psbt" and 0xFF (BIP-174). */
const psbtMagic = [0x70, 0x73, 0x62, 0x74, 0xff];

/**
 * For a multisig vault or any wallet that signs transactions but not messages: the proof's PSBT
 * to sign with the vault's coordinator (as text, a .psbt file and a QR code), and a file picker
 * that puts the signed PSBT into the signature field. The PSBT can never be broadcast.
 */
export async function renderPsbtOffer(state: PageState, psbt: string): Promise<HTMLElement> {
  const { t } = state;
  const psbtId = fieldId("psbt");
  const uploadId = fieldId("psbt-upload");
  const upload = h("input", { id: uploadId, type: "file", accept: ".psbt,.txt,application/octet-stream,text/plain" }) as HTMLInputElement;
  upload.addEventListener("change", () => {
    const file = upload.files?.[0];
    if (!file) return;
    void file.arrayBuffer().then((buffer) => {
      const bytes = new Uint8Array(buffer);
      // A binary PSBT file is sent as base64; a text file (base64 or hex) as it is.
      const text = psbtMagic.every((byte, i) => bytes[i] === byte) ? btoa(String.fromCharCode(...bytes)) : new TextDecoder().decode(bytes).trim();
      state.form.signature = text;
      const field = document.querySelector<HTMLTextAreaElement>("textarea[name=signature]");
      if (field) field.value = text;
    });
  });
  return h(
    "section",
    { "aria-labelledby": "psbt-heading" },
    h("h2", { id: "psbt-heading" }, t("psbt.heading")),
    h("p", {}, t("psbt.instructions")),
    h("label", { for: psbtId }, t("psbt.label")),
    h("textarea", { id: psbtId, readonly: true, class: "mono" }, psbt),
    copyButton(t, t("psbt.copy"), psbt),
    " ",
    h("a", { class: "button secondary", href: `data:application/octet-stream;base64,${psbt}`, download: "proof.psbt" }, t("psbt.download")),
    await qrCode(psbt, t("psbt.qr")),
    h("label", { for: uploadId }, t("psbt.upload")),
    upload,
  );
}

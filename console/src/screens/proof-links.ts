import { h } from "@compliance-graph/web-dom";
import { t } from "../translations.js";

/**
 * A proof's links as the customer is to get them: the portal link and, where it differs, the AOPP
 * URI, each with a copy button, and a QR code of the one a phone's wallet opens. Shown by the
 * request form and by a pending proof's detail when it issues a new link: the credential in them is
 * stored only as a hash, so this is the one time they are on screen.
 */
export async function proofLinks(portalUrl: string, aoppUri: string | null | undefined): Promise<Node[]> {
  const wallet = aoppUri && aoppUri !== portalUrl ? aoppUri : null;
  // Loaded on first use: the QR encoder is a third of the bundle and only these links need it.
  const { default: QRCode } = await import("qrcode");
  const qr = await QRCode.toDataURL(wallet ?? portalUrl, { margin: 1, width: 220 });
  return [
    copyRow(t("request.portalLink"), portalUrl),
    wallet ? copyRow(t("request.aoppUri"), wallet) : null,
    h("img", { src: qr, alt: t("request.qr", { what: wallet ? t("request.aoppUri") : t("request.portalLink") }), width: "220", height: "220" }),
  ].filter((node): node is HTMLElement => node !== null);
}

function copyRow(label: string, value: string): HTMLElement {
  const status = h("span", { role: "status" });
  return h(
    "div",
    { class: "copy-row" },
    h("span", {}, `${label}: `),
    value.startsWith("http") ? h("a", { href: value, target: "_blank", rel: "noopener noreferrer" }, value) : h("code", {}, value),
    h(
      "button",
      {
        type: "button",
        "aria-label": t("request.copy", { what: label }),
        onclick: async () => {
          await navigator.clipboard.writeText(value).then(
            () => (status.textContent = t("request.copied")),
            () => (status.textContent = t("request.copyFailed")),
          );
        },
      },
      t("request.copyShort"),
    ),
    status,
  );
}

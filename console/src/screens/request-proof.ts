import type { ConsoleContext } from "../console-context.js";
import { fieldId, h } from "@compliance-graph/web-dom";
import { ApiError } from "../gateway-api.js";
import { assetLabel } from "../proof-cells.js";
import type { ProofKind } from "../proof-fields.js";
import { t } from "../translations.js";

interface FieldSpec {
  name: string;
  required?: boolean;
  type?: "text" | "textarea" | "checkbox";
}

const fieldsOf: Record<ProofKind, FieldSpec[]> = {
  signature: [{ name: "expectedAddress" }, { name: "message", type: "textarea" }, { name: "xpubRequired", type: "checkbox" }],
  satoshi: [{ name: "senderAddress", required: true }, { name: "depositAddress", required: true }],
  media: [{ name: "expectedAddress", required: true }],
};

const mutations: Record<ProofKind, string> = {
  signature: `mutation Request($input: AopdRequestAoppProofInput!) { aopd { result: requestAoppProof(input: $input) { portalUrl aoppUri proof { id } } } }`,
  satoshi: `mutation Request($input: AopdRequestSatoshiProofInput!) { aopd { result: requestSatoshiProof(input: $input) { portalUrl id } } }`,
  media: `mutation Request($input: AopdRequestMediaProofInput!) { aopd { result: requestMediaProof(input: $input) { portalUrl id } } }`,
};

/**
 * Requesting a proof: a form per kind, the asset picked by typing its name, symbol or code among
 * every asset of `configuration`; each refusal of the API is shown next to the field it names
 * (`extensions.field`, `input.<name>`); the result is the portal link and, for AOPP, the wallet's
 * URI, each with a copy button, and a QR code to hand to the customer.
 */
export function requestProof(context: ConsoleContext, root: HTMLElement): void {
  const kind = (new URLSearchParams(location.search).get("kind") ?? "signature") as ProofKind;
  const current: ProofKind = kind in fieldsOf ? kind : "signature";
  const listId = fieldId("assets");
  const errors = new Map<string, HTMLElement>();
  const field = (name: string, control: HTMLElement, label = t(`request.${name}`)) => {
    const id = fieldId(name);
    const errorId = `${id}-error`;
    control.id = id;
    control.setAttribute("aria-describedby", errorId);
    const error = h("p", { id: errorId, class: "error", role: "alert" });
    errors.set(name, error);
    return h("div", { class: "field" }, h("label", { for: id }, label), control, error);
  };
  const kindSelect = h("select", { name: "kind" }, ...(["signature", "satoshi", "media"] as const).map((value) => h("option", { value, selected: value === current }, t(`kind.${value}`)))) as HTMLSelectElement;
  kindSelect.addEventListener("change", () => context.navigate(`/console/request?kind=${kindSelect.value}`, true));
  const form = h(
    "form",
    { "aria-label": t("request.title"), novalidate: true },
    field("kind", kindSelect, t("column.kind")),
    field("customerId", h("input", { name: "customerId", required: true })),
    field("asset", h("input", { name: "asset", list: listId, required: true, autocomplete: "off" })),
    h("datalist", { id: listId }, ...[...context.assets.values()].map((asset) => h("option", { value: asset.asset }, assetLabel(context, asset.asset)))),
    ...fieldsOf[current].map((spec) =>
      spec.type === "checkbox"
        ? field(spec.name, h("input", { type: "checkbox", name: spec.name }))
        : field(spec.name, h(spec.type === "textarea" ? "textarea" : "input", { name: spec.name, required: spec.required })),
    ),
    field("comment", h("textarea", { name: "comment", maxlength: "2000" })),
    h("button", { type: "submit" }, t("request.submit")),
  ) as HTMLFormElement;
  const general = h("p", { role: "alert", class: "error" });
  const result = h("div", {});
  root.replaceChildren(h("h1", {}, t("request.title")), form, general, result);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    for (const error of errors.values()) error.textContent = "";
    general.textContent = "";
    const data = new FormData(form);
    const typed = String(data.get("asset") ?? "").trim();
    // The asset may be typed as its code, name or symbol.
    const asset = [...context.assets.values()].find((candidate) => [candidate.asset, candidate.name, candidate.symbol].some((value) => value && value.toLowerCase() === typed.toLowerCase()))?.asset ?? typed;
    const input: Record<string, unknown> = { customerId: String(data.get("customerId") ?? "").trim(), asset };
    for (const spec of fieldsOf[current]) {
      if (spec.type === "checkbox") input[spec.name] = data.get(spec.name) === "on";
      else {
        const value = String(data.get(spec.name) ?? "").trim();
        if (value) input[spec.name] = value;
      }
    }
    const comment = String(data.get("comment") ?? "").trim();
    if (comment) input.comment = comment;
    try {
      const answer = await context.api.graphql<{ aopd: { result: { portalUrl: string; aoppUri?: string; id?: string; proof?: { id: string } } } }>(mutations[current], { input });
      const { portalUrl, aoppUri } = answer.aopd.result;
      const id = answer.aopd.result.id ?? answer.aopd.result.proof?.id ?? "";
      result.replaceChildren(await requestResult(id, portalUrl, aoppUri));
    } catch (error) {
      if (!(error instanceof ApiError)) {
        general.textContent = t("common.failed");
        return;
      }
      for (const entry of error.errors) {
        // `input.expectedAddress`, or a variable coercion error naming the field in its message.
        const name = entry.extensions?.field?.replace(/^input\./, "") ?? [...errors.keys()].find((key) => entry.message.includes(`"${key}"`));
        const target = name ? errors.get(name) : undefined;
        if (target) target.textContent = entry.message;
        else general.textContent = t("common.refused", { message: entry.message });
      }
    }
  });
}

async function requestResult(id: string, portalUrl: string, aoppUri: string | undefined): Promise<HTMLElement> {
  const copyRow = (label: string, value: string) => {
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
  };
  const qrTarget = aoppUri ?? portalUrl;
  // Loaded on first use: the QR encoder is a third of the bundle and only this result needs it.
  const { default: QRCode } = await import("qrcode");
  const qr = await QRCode.toDataURL(qrTarget, { margin: 1, width: 220 });
  return h(
    "section",
    { "aria-label": t("request.result") },
    h("h2", {}, t("request.created", { id })),
    copyRow(t("request.portalLink"), portalUrl),
    aoppUri && aoppUri !== portalUrl ? copyRow(t("request.aoppUri"), aoppUri) : null,
    h("img", { src: qr, alt: t("request.qr", { what: aoppUri && aoppUri !== portalUrl ? t("request.aoppUri") : t("request.portalLink") }), width: "220", height: "220" }),
    h("p", {}, h("a", { href: `/console/proofs/${encodeURIComponent(id)}`, "data-route": "" }, t("request.open"))),
  );
}

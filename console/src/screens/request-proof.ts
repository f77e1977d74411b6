import type { ConsoleContext } from "../console-context.js";
import { fieldId, h } from "@compliance-graph/web-dom";
import { ApiError } from "../gateway-api.js";
import { addressFitsFamily } from "../address-shape.js";
import { fieldErrors, type FieldError } from "../field-errors.js";
import type { AopdAsset } from "../graphql/api-values.js";
import { graphql, type ResultOf, type TypedDocument } from "../graphql/graphql.js";
import { screeningFields, type ProofKind } from "../proof-fields.js";
import { matchedEntryText } from "../proof-screening.js";
import { t, textOr } from "../translations.js";
import { assetDescription, assetPicker } from "./asset-picker.js";
import { proofLinks } from "./proof-links.js";

interface FieldSpec {
  name: string;
  required?: boolean;
  type?: "text" | "textarea" | "checkbox";
}

const fieldsOf: Record<ProofKind, FieldSpec[]> = {
  signature: [{ name: "expectedAddress" }, { name: "message", type: "textarea" }, { name: "xpubRequired", type: "checkbox" }],
  satoshi: [
    { name: "senderAddress", required: true },
    { name: "depositAddress", required: true },
  ],
  media: [{ name: "expectedAddress", required: true }],
};

/**
 * One document per kind. The form builds each kind's input from its fields (`fieldsOf`) and the
 * API checks it; the documents' own selections are typed from the schema.
 */
const mutations: Record<ProofKind, TypedDocument<{ aopd: { result: RequestResult } | null }, { input: never }>> = {
  signature: graphql(`
    mutation RequestAoppProof($input: AopdRequestAoppProofInput!) {
      aopd {
        result: requestAoppProof(input: $input) {
          portalUrl
          aoppUri
          proof {
            id
          }
        }
      }
    }
  `),
  satoshi: graphql(`
    mutation RequestSatoshiProof($input: AopdRequestSatoshiProofInput!) {
      aopd {
        result: requestSatoshiProof(input: $input) {
          portalUrl
          id
        }
      }
    }
  `),
  media: graphql(`
    mutation RequestMediaProof($input: AopdRequestMediaProofInput!) {
      aopd {
        result: requestMediaProof(input: $input) {
          portalUrl
          id
        }
      }
    }
  `),
};

/** What each kind's request answers: the portal link, and for AOPP the wallet's URI; the proof's id, directly or in `proof`. */
type RequestResult = { portalUrl: string | null; aoppUri?: string; id?: string; proof?: { id: string } };

/** The address a kind's request is for: the one screened before the request is sent. */
const screenedField: Record<ProofKind, string> = { signature: "expectedAddress", satoshi: "senderAddress", media: "expectedAddress" };

const screenQuery = graphql(
  `
    query Screen($asset: AopdAsset!, $address: String!) {
      aopd {
        check: screenAddress(asset: $asset, address: $address) {
          refused
          screening {
            ...ProofScreeningFields
          }
        }
      }
    }
  `,
  [screeningFields],
);

type AddressCheck = NonNullable<ResultOf<typeof screenQuery>["aopd"]>["check"];

/**
 * Requesting a proof: a form per kind, the asset picked from a list that shows each asset's
 * network and token standard. Before anything is sent, each missing field is named beside it and
 * an address that does not fit the chosen asset's network is pointed out; then the address is
 * screened (`screenAddress`) and a LISTED match is shown, with its list version and entry, for a
 * confirmation (or, under the refuse policy, as the reason nothing can be requested). Each refusal
 * of the API is shown next to the field its path names, in the console's language
 * (field-errors.ts). The result is the portal link and, for AOPP, the wallet's URI, each with a
 * copy button, and a QR code to hand to the customer.
 */
export function requestProof(context: ConsoleContext, root: HTMLElement): void {
  const kind = (new URLSearchParams(location.search).get("kind") ?? "signature") as ProofKind;
  const current: ProofKind = kind in fieldsOf ? kind : "signature";
  const errors = new Map<string, HTMLElement>();
  const controls = new Map<string, HTMLElement>();
  const labelOf = (name: string) => t(`request.${name}`);
  const describe = (control: HTMLElement, errorId: string) => control.setAttribute("aria-describedby", errorId);
  const field = (name: string, control: HTMLElement, label = labelOf(name)) => {
    const id = fieldId(name);
    const errorId = `${id}-error`;
    control.id = id;
    describe(control, errorId);
    controls.set(name, control);
    const error = h("p", { id: errorId, class: "error", role: "alert" });
    errors.set(name, error);
    return h("div", { class: "field" }, h("label", { for: id }, label), control, error);
  };
  const addressWarning = h("p", { class: "note", role: "status" });
  const checkAddressShape = () => {
    const control = controls.get(screenedField[current]) as HTMLInputElement | undefined;
    const asset = picker.selected();
    const typed = control?.value.trim() ?? "";
    const fits = typed && asset ? addressFitsFamily(asset.addressFamily, typed) : undefined;
    addressWarning.textContent =
      fits === false
        ? t("request.addressNotOfNetwork", { network: textOr(`network.${asset!.network}`, asset!.network ?? ""), asset: assetDescription(asset!) })
        : "";
    return fits !== false;
  };
  // A new asset or address makes the earlier verdict on the address stale: it is checked afresh.
  const addressChanged = () => {
    const name = screenedField[current];
    if (errors.get(name)) errors.get(name)!.textContent = "";
    controls.get(name)?.removeAttribute("aria-invalid");
    checkAddressShape();
  };
  const picker = assetPicker([...context.assets.values()], addressChanged);
  const assetError = h("p", { id: `${picker.list.id}-error`, class: "error", role: "alert" });
  describe(picker.list, assetError.id);
  errors.set("asset", assetError);
  controls.set("asset", picker.list);
  // The kinds the API names (`configuration.proofKinds`) that this form knows how to ask for.
  const kinds = [...context.proofKinds.keys()].filter((name) => name in fieldsOf);
  const kindSelect = h(
    "select",
    { name: "kind" },
    ...kinds.map((value) => h("option", { value, selected: value === current }, t(`kind.${value}`))),
  ) as HTMLSelectElement;
  kindSelect.addEventListener("change", () => context.navigate(`/console/request?kind=${kindSelect.value}`, true));
  const form = h(
    "form",
    { "aria-label": t("request.title"), novalidate: true },
    field("kind", kindSelect, t("column.kind")),
    field("customerId", h("input", { name: "customerId", required: true })),
    h("div", { class: "field" }, picker.element, assetError),
    ...fieldsOf[current].map((spec) =>
      spec.type === "checkbox"
        ? field(spec.name, h("input", { type: "checkbox", name: spec.name }))
        : field(
            spec.name,
            h(spec.type === "textarea" ? "textarea" : "input", {
              name: spec.name,
              required: spec.required,
              oninput: () => spec.name === screenedField[current] && addressChanged(),
            }),
          ),
    ),
    addressWarning,
    field("comment", h("textarea", { name: "comment", maxlength: "2000" })),
    h("button", { type: "submit" }, t("request.submit")),
  ) as HTMLFormElement;
  const general = h("div", { role: "alert", class: "error" });
  const confirmation = h("div", {});
  const result = h("div", {});
  root.replaceChildren(h("h1", {}, t("request.title")), form, confirmation, general, result);

  const showErrors = (found: FieldError[]) => {
    let first: HTMLElement | undefined;
    for (const error of found) {
      const target = error.field ? errors.get(error.field) : undefined;
      const line = h("span", {}, error.text, error.detail ? h("small", { class: "detail", lang: "en" }, ` ${error.detail}`) : null);
      if (target && error.field) {
        target.replaceChildren(line);
        controls.get(error.field)?.setAttribute("aria-invalid", "true");
        first ??= controls.get(error.field);
      } else general.append(h("p", {}, line));
    }
    first?.focus();
  };

  const inputOf = (): Record<string, unknown> | undefined => {
    const data = new FormData(form);
    const missing: FieldError[] = [];
    const customerId = String(data.get("customerId") ?? "").trim();
    if (!customerId) missing.push({ field: "customerId", text: t("fieldError.missing", { field: labelOf("customerId") }), detail: undefined });
    const asset = picker.selected();
    if (!asset) missing.push({ field: "asset", text: t("fieldError.chooseAsset"), detail: undefined });
    const input: Record<string, unknown> = { customerId, asset: asset?.asset };
    for (const spec of fieldsOf[current]) {
      if (spec.type === "checkbox") input[spec.name] = data.get(spec.name) === "on";
      else {
        const value = String(data.get(spec.name) ?? "").trim();
        if (value) input[spec.name] = value;
        else if (spec.required) missing.push({ field: spec.name, text: t("fieldError.missing", { field: labelOf(spec.name) }), detail: undefined });
      }
    }
    const comment = String(data.get("comment") ?? "").trim();
    if (comment) input.comment = comment;
    if (!checkAddressShape()) missing.push({ field: screenedField[current], text: addressWarning.textContent ?? "", detail: undefined });
    if (missing.length === 0) return input;
    showErrors(missing);
    return undefined;
  };

  const send = async (input: Record<string, unknown>) => {
    try {
      // The input is built from the kind's fields at run time; the API checks it and names the field it refuses.
      const answer = await context.api.graphql(mutations[current], { input: input as never });
      if (!answer.aopd) throw new Error("The API answered without the request.");
      const { portalUrl, aoppUri } = answer.aopd.result;
      // Set on every answer of a request (the schema makes it nullable because a proof read later has none).
      if (!portalUrl) throw new Error("The API answered without the portal link.");
      const id = answer.aopd.result.id ?? answer.aopd.result.proof?.id ?? "";
      result.replaceChildren(await requestResult(id, portalUrl, aoppUri));
    } catch (error) {
      if (error instanceof ApiError) showErrors(fieldErrors(error.errors, new Set(errors.keys()), labelOf));
      else general.textContent = t("common.failed");
    }
  };

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    for (const error of errors.values()) error.textContent = "";
    for (const control of controls.values()) control.removeAttribute("aria-invalid");
    general.replaceChildren();
    confirmation.replaceChildren();
    result.replaceChildren();
    const input = inputOf();
    if (!input) return;
    const address = input[screenedField[current]];
    if (typeof address !== "string") return send(input);
    let check: AddressCheck;
    try {
      const answer = await context.api.graphql(screenQuery, { asset: input.asset as AopdAsset, address });
      if (!answer.aopd) throw new Error("The API answered without the screening.");
      check = answer.aopd.check;
    } catch (error) {
      if (error instanceof ApiError) showErrors(fieldErrors(error.errors, new Set(errors.keys()), labelOf));
      else general.textContent = t("common.failed");
      return;
    }
    if (check.screening.status !== "LISTED") return send(input);
    confirmation.replaceChildren(
      listedConfirmation(
        check,
        () => {
          confirmation.replaceChildren();
          void send(input);
        },
        () => {
          confirmation.replaceChildren();
          controls.get(screenedField[current])?.focus();
        },
      ),
    );
    confirmation.querySelector<HTMLElement>("button")?.focus();
  });
}

/**
 * The match shown before a request for a LISTED address: the list, its version and the entry.
 * Under the flag policy the officer may go on (the proof is created LISTED); under refuse the
 * panel says that this deployment does not request proofs for listed addresses.
 */
function listedConfirmation(check: AddressCheck, proceed: () => void, cancel: () => void): HTMLElement {
  const { screening } = check;
  return h(
    "section",
    { class: "listed-notice", role: "alertdialog", "aria-labelledby": "listed-confirm-heading" },
    h("h2", { id: "listed-confirm-heading" }, t("request.listedTitle")),
    h("p", {}, t("screening.listedHeadline", { list: screening.list ?? "", version: screening.listVersion ?? "" })),
    h("p", {}, matchedEntryText(screening)),
    check.refused ? h("p", { class: "note" }, t("request.listedRefused")) : h("p", {}, t("request.listedQuestion")),
    check.refused ? null : h("button", { type: "button", onclick: proceed }, t("request.listedProceed")),
    h("button", { type: "button", class: "secondary", onclick: cancel }, check.refused ? t("request.listedBack") : t("request.listedCancel")),
  );
}

async function requestResult(id: string, portalUrl: string, aoppUri: string | undefined): Promise<HTMLElement> {
  return h(
    "section",
    { "aria-label": t("request.result") },
    h("h2", {}, t("request.created", { id })),
    ...(await proofLinks(portalUrl, aoppUri)),
    h("p", {}, h("a", { href: `/console/proofs/${encodeURIComponent(id)}`, "data-route": "" }, t("request.open"))),
  );
}

import type { ConsoleContext } from "../console-context.js";
import { fieldId, h } from "@compliance-graph/web-dom";
import { ApiError } from "../gateway-api.js";
import { addressFitsFamily } from "../address-shape.js";
import { fieldErrors, type FieldError } from "../field-errors.js";
import { graphql, type ResultOf } from "../graphql/graphql.js";
import { screeningFields, type ProofKind } from "../proof-fields.js";
import { fieldsOf, screenedField, sendProofRequest, type FieldSpec, type FilledRequest } from "../proof-requests.js";
import { matchedEntryText } from "../proof-screening.js";
import { t, textOr } from "../translations.js";
import { assetDescription, assetPicker } from "./asset-picker.js";
import { proofLinks } from "./proof-links.js";

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
  const kindFields: readonly FieldSpec[] = fieldsOf[current];
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
    ...kindFields.map((spec) =>
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

  /** The filled form, or undefined after naming beside each field what is missing or does not fit. */
  const filledForm = (): FilledRequest | undefined => {
    const data = new FormData(form);
    const missing: FieldError[] = [];
    const textOf = (name: string) => String(data.get(name) ?? "").trim();
    const customerId = textOf("customerId");
    if (!customerId) missing.push({ field: "customerId", text: t("fieldError.missing", { field: labelOf("customerId") }), detail: undefined });
    const asset = picker.selected();
    if (!asset) missing.push({ field: "asset", text: t("fieldError.chooseAsset"), detail: undefined });
    for (const spec of kindFields) {
      if (spec.required && spec.type !== "checkbox" && !textOf(spec.name))
        missing.push({ field: spec.name, text: t("fieldError.missing", { field: labelOf(spec.name) }), detail: undefined });
    }
    if (!checkAddressShape()) missing.push({ field: screenedField[current], text: addressWarning.textContent ?? "", detail: undefined });
    if (missing.length > 0 || !asset) {
      showErrors(missing);
      return undefined;
    }
    return {
      customerId,
      asset: asset.asset,
      comment: textOf("comment") || undefined,
      text: (name) => textOf(name) || undefined,
      required: textOf,
      checked: (name) => data.get(name) === "on",
    };
  };

  const send = async (filled: FilledRequest) => {
    try {
      const { portalUrl, aoppUri, id, proof } = await sendProofRequest(context.api, current, filled);
      // Set on every answer of a request (the schema makes it nullable because a proof read later has none).
      if (!portalUrl) throw new Error("The API answered without the portal link.");
      result.replaceChildren(await requestResult(id ?? proof?.id ?? "", portalUrl, aoppUri));
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
    const filled = filledForm();
    if (!filled) return;
    const address = filled.text(screenedField[current]);
    if (address === undefined) return send(filled);
    let check: AddressCheck;
    try {
      const answer = await context.api.graphql(screenQuery, { asset: filled.asset, address });
      if (!answer.aopd) throw new Error("The API answered without the screening.");
      check = answer.aopd.check;
    } catch (error) {
      if (error instanceof ApiError) showErrors(fieldErrors(error.errors, new Set(errors.keys()), labelOf));
      else general.textContent = t("common.failed");
      return;
    }
    if (check.screening.status !== "LISTED") return send(filled);
    confirmation.replaceChildren(
      listedConfirmation(
        check,
        () => {
          confirmation.replaceChildren();
          void send(filled);
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

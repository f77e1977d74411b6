import type { GatewayApi } from "./gateway-api.js";
import type { AopdAsset } from "./graphql/api-values.js";
import { graphql, type VariablesOf } from "./graphql/graphql.js";
import type { ProofKind } from "./proof-fields.js";

const requestAoppProof = graphql(`
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
`);

const requestSatoshiProof = graphql(`
  mutation RequestSatoshiProof($input: AopdRequestSatoshiProofInput!) {
    aopd {
      result: requestSatoshiProof(input: $input) {
        portalUrl
        id
      }
    }
  }
`);

const requestMediaProof = graphql(`
  mutation RequestMediaProof($input: AopdRequestMediaProofInput!) {
    aopd {
      result: requestMediaProof(input: $input) {
        portalUrl
        id
      }
    }
  }
`);

/** Each kind's request input, as the API schema types it (`AopdRequest…ProofInput`). */
export type RequestInput = {
  signature: VariablesOf<typeof requestAoppProof>["input"];
  satoshi: VariablesOf<typeof requestSatoshiProof>["input"];
  media: VariablesOf<typeof requestMediaProof>["input"];
};

/** A field of a kind's request input. */
export type RequestField<Kind extends ProofKind = ProofKind> = Kind extends ProofKind ? Extract<keyof RequestInput[Kind], string> : never;

/** What each kind's request answers: the portal link, and for AOPP the wallet's URI; the proof's id, directly or in `proof`. */
export type RequestResult = { portalUrl: string | null; aoppUri?: string; id?: string; proof?: { id: string } };

export interface FieldSpec<Name extends string = RequestField> {
  name: Name;
  required?: boolean;
  type?: "text" | "textarea" | "checkbox";
}

/** The fields the form shows for each kind beside the customer, the asset and the comment: fields of that kind's input. */
export const fieldsOf: { [Kind in ProofKind]: readonly FieldSpec<RequestField<Kind>>[] } = {
  signature: [{ name: "expectedAddress" }, { name: "message", type: "textarea" }, { name: "xpubRequired", type: "checkbox" }],
  satoshi: [
    { name: "senderAddress", required: true },
    { name: "depositAddress", required: true },
  ],
  media: [{ name: "expectedAddress", required: true }],
};

/** The address a kind's request is for: the one screened before the request is sent. */
export const screenedField: { [Kind in ProofKind]: RequestField<Kind> } = {
  signature: "expectedAddress",
  satoshi: "senderAddress",
  media: "expectedAddress",
};

/** What the officer filled in, read once the form found nothing required missing. */
export interface FilledRequest {
  customerId: string;
  asset: AopdAsset;
  comment: string | undefined;
  /** A text field, trimmed; undefined when left empty (the input then leaves it out). */
  text: (name: RequestField) => string | undefined;
  /** A field `fieldsOf` marks required: the form has already named it missing when it is empty. */
  required: (name: RequestField) => string;
  checked: (name: RequestField) => boolean;
}

// Each kind's input from the filled form, its return type the schema's: a renamed, removed or newly
// required input field fails the type check here (a declared return type, unlike a contextual one,
// also refuses a property the input no longer has).

function signatureInput({ customerId, asset, comment, text, checked }: FilledRequest): RequestInput["signature"] {
  return { customerId, asset, comment, expectedAddress: text("expectedAddress"), message: text("message"), xpubRequired: checked("xpubRequired") };
}

function satoshiInput({ customerId, asset, comment, required }: FilledRequest): RequestInput["satoshi"] {
  return { customerId, asset, comment, senderAddress: required("senderAddress"), depositAddress: required("depositAddress") };
}

function mediaInput({ customerId, asset, comment, required }: FilledRequest): RequestInput["media"] {
  return { customerId, asset, comment, expectedAddress: required("expectedAddress") };
}

/**
 * Requests a proof of `kind` with what the officer filled in; the API's refusals come back as its
 * `ApiError`. A case per kind, so that each document is sent with its own kind's input, both as
 * the schema types them.
 */
export async function sendProofRequest(api: GatewayApi, kind: ProofKind, filled: FilledRequest): Promise<RequestResult> {
  switch (kind) {
    case "signature":
      return resultOf(await api.graphql(requestAoppProof, { input: signatureInput(filled) }));
    case "satoshi":
      return resultOf(await api.graphql(requestSatoshiProof, { input: satoshiInput(filled) }));
    case "media":
      return resultOf(await api.graphql(requestMediaProof, { input: mediaInput(filled) }));
  }
}

function resultOf(answer: { aopd: { result: RequestResult } | null }): RequestResult {
  if (!answer.aopd) throw new Error("The API answered without the request.");
  return answer.aopd.result;
}

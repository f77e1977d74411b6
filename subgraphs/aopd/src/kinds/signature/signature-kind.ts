import type { Proof, SignatureProof } from "../../proofs/proof.js";
import type { ProofKindModule } from "../proof-kind.js";
import { aoppUriOf } from "./aopp-uri.js";
import { proofPsbtOffer } from "./proof-psbt-offer.js";
import { proofSignInMessage } from "./proof-sign-in-message.js";

const signature = (proof: Proof): SignatureProof | undefined => (proof.__typename === "AopdSignatureProof" ? proof : undefined);

/**
 * The signature proof (AOPP): the customer's wallet signs a message with the key of the address,
 * through an AOPP callback or the portal (`acceptProofSignature`); a verified signature is the
 * decision, so no officer decides it, unless screening left it for review (a LISTED address under
 * the refusal policy): an officer then decides it (`assessSignatureProof`). Requested with `requestAoppProof`.
 */
export const signatureKind: ProofKindModule<"signature"> = {
  name: "signature",
  typename: "AopdSignatureProof",
  decidedBy: "evidence",
  // Under AOPD_SCREENING_POLICY=refuse a listed address's signature is left for review (accept-proof-signature.ts).
  leavesForReview: true,
  decisionReasons: ["SANCTIONED_ADDRESS", "OTHER"],
  exportColumns: {
    address: [
      {
        header: "Address format",
        width: 14,
        type: "text",
        value: (p) => signature(p)?.format ?? null,
        sql: "CASE WHEN p.kind = 'signature' THEN p.format END",
      },
    ],
    request: [
      { header: "Xpub", width: 40, type: "text", value: (p) => signature(p)?.xpub ?? null, sql: "CASE WHEN p.kind = 'signature' THEN p.xpub END" },
      { header: "Message", width: 40, type: "text", value: (p) => signature(p)?.message ?? null, sql: "CASE WHEN p.kind = 'signature' THEN p.message END" },
      {
        header: "Signature",
        width: 40,
        type: "text",
        value: (p) => signature(p)?.signature ?? null,
        sql: "CASE WHEN p.kind = 'signature' THEN p.signature END",
      },
    ],
  },
  portalView: (config, row, credential) => ({
    format: row.format,
    message: row.message ?? "",
    xpubRequired: row.xpub_required,
    aoppUri: aoppUriOf(config, row, credential),
    psbt: proofPsbtOffer(config, row),
    signInMessage: proofSignInMessage(config, row),
  }),
  schemaFile: new URL("./signature-proof.graphql", import.meta.url),
};

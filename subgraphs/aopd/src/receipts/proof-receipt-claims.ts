import type { AssetRegistry } from "@compliance-graph/dti-assets";
import type { ProofRow } from "../database/database-schema.js";
import { currentDecisionOf } from "../proofs/decision.js";
import { signatureVerificationDecider, type Decider } from "../audit/decider.js";
import { toProof } from "../proofs/proof.js";
import { evidenceHashOf } from "../proofs/evidence-hash.js";

/** What a receipt states about one verified proof: the `proof` claim of the signed statement (docs/receipts.md). */
export interface ProofReceiptStatement {
  id: string;
  address: string;
  /** The asset's DTI code and its name in the registry. */
  asset: { code: string; name: string | null };
  customerId: string;
  /** How control was proven: the proof's kind, and for a signature proof the scheme that verified it (null when it was not recorded). */
  method: { kind: ProofRow["kind"]; signatureScheme?: string | null };
  /** `sha256:<hex>` of the evidence (evidence-hash.ts). */
  evidenceHash: string;
  /** The screening of the address when the receipt was issued: the list's result (and the version screened against), and the provider's when one is configured. */
  screening: {
    status: ProofRow["screening_status"];
    list: string | null;
    listVersion: string | null;
    provider: { name: string | null; status: "CLEAR" | "LISTED" } | null;
  };
  decision: {
    outcome: "VERIFIED";
    /** `DECIDED`, `CONFIRMED` (four eyes), or `SIGNATURE_VERIFIED` for a signature proof. */
    action: string;
    /** ISO 8601, UTC, with milliseconds. */
    decidedAt: string;
    /** Null for a proof decided before deciders were recorded (migration 0009). */
    decider: Decider | null;
  };
}

/**
 * The statement of a VERIFIED proof row (the caller checks the status). A signature proof is
 * decided by its signature: the decider is signature verification, at the time the proof became
 * VERIFIED (its last change: a verified signature proof changes no more); unless screening left it
 * for review, when the decision in force is an officer's and is stated as for any kind.
 */
export function proofReceiptStatement(row: ProofRow, assets: AssetRegistry): ProofReceiptStatement {
  const proof = toProof(row);
  const base = {
    id: row.id,
    address: row.address ?? "",
    asset: { code: row.asset, name: assets.get(row.asset)?.name ?? null },
    customerId: row.customer_id,
    evidenceHash: evidenceHashOf(row),
    screening: {
      status: row.screening_status,
      list: row.screening_list,
      listVersion: row.screening_list_version,
      provider: row.provider_screening_status === null ? null : { name: row.provider_screening_name, status: row.provider_screening_status },
    },
  };
  const decision = currentDecisionOf(row);
  // A signature decides its proof, unless screening left it for review: then the officer's decision is the one stated.
  if (proof.__typename === "AopdSignatureProof" && decision === null) {
    return {
      ...base,
      method: { kind: "signature", signatureScheme: proof.signatureScheme ?? null },
      decision: { outcome: "VERIFIED", action: "SIGNATURE_VERIFIED", decidedAt: row.updated_at.toISOString(), decider: signatureVerificationDecider },
    };
  }
  return {
    ...base,
    method: proof.__typename === "AopdSignatureProof" ? { kind: "signature", signatureScheme: proof.signatureScheme ?? null } : { kind: row.kind },
    decision: {
      outcome: "VERIFIED",
      action: decision?.action ?? "DECIDED",
      decidedAt: (decision?.decidedAt ?? row.updated_at).toISOString(),
      decider: decision?.decider ?? null,
    },
  };
}

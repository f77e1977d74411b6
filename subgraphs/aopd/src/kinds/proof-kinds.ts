import type { ProofKind, ProofRow } from "../database/database-schema.js";
import type { Proof } from "../proofs/proof.js";
import { mediaKind } from "./media/media-kind.js";
import type { ExportSection, ProofExportColumn, ProofKindModule } from "./proof-kind.js";
import { satoshiKind } from "./satoshi/satoshi-kind.js";
import { signatureKind } from "./signature/signature-kind.js";

/**
 * The registry of proof kinds: each kind is one module (kinds/<kind>/), and what treats kinds alike
 * reads them here, in this order (the export's columns, the portal's view, the schema, the API's
 * `configuration.proofKinds`, the kinds four eyes may name). A new kind is a module and its entry.
 */
export const proofKinds: readonly ProofKindModule[] = [signatureKind, satoshiKind, mediaKind];

/**
 * The kinds an officer decides some proofs of: those an officer decides every proof of, and those whose evidence may leave a
 * proof for review (`leavesForReview`). The kinds `assess…Proof` and four eyes (`AOPD_FOUR_EYES_KINDS`) may name.
 */
export const officerAssessedKinds: readonly ProofKind[] = proofKinds
  .filter((kind) => kind.decidedBy === "officer" || kind.leavesForReview)
  .map((kind) => kind.name);

/**
 * Whether an officer decides this proof: the one rule of which kinds and states go to a person.
 * Every proof of an officer-decided kind; of a kind its evidence decides, only a proof the evidence
 * left for review (`left_for_review`, set with SUBMITTED and kept after the officer's decision).
 * `assessSignatureProof` refuses the others, and `reopenProof` the decisions it did not make; the
 * API tells clients the same per kind (`configuration.proofKinds`: `decidedByOfficer`,
 * `decidedByOfficerWhenLeftForReview`).
 */
export function officerDecides(proof: Pick<ProofRow, "kind" | "left_for_review">): boolean {
  const kind = proofKindNamed(proof.kind);
  return kind.decidedBy === "officer" || (kind.leavesForReview && proof.left_for_review !== null && proof.left_for_review !== undefined);
}

/** The kind of a proof row's `kind`. */
export function proofKindNamed(name: ProofKind): ProofKindModule {
  const kind = proofKinds.find((candidate) => candidate.name === name);
  if (!kind) throw new Error(`no proof kind is named ${JSON.stringify(name)}`);
  return kind;
}

const kindNames = new Map<Proof["__typename"], ProofKind>(proofKinds.map((kind) => [kind.typename, kind.name]));

/** The kind's name of an API proof (`AopdSatoshiProof` is `satoshi`); a map lookup, since the export asks it for every row. */
export function kindNameOf(proof: Proof): ProofKind {
  return kindNames.get(proof.__typename) as ProofKind;
}

/** Every kind's columns of one section of the proof sheet, in registry order. */
export function kindExportColumns(section: ExportSection): ProofExportColumn[] {
  return proofKinds.flatMap((kind) => kind.exportColumns[section] ?? []);
}

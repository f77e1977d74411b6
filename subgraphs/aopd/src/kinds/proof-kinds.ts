import type { ProofKind } from "../database/database-schema.js";
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

/** The kinds an officer decides (`assess…Proof`, reopening, four eyes), in registry order. */
export const officerDecidedKinds: readonly ProofKind[] = proofKinds.filter((kind) => kind.decidedBy === "officer").map((kind) => kind.name);

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

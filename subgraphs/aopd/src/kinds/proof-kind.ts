import type { PublicProofView } from "@compliance-graph/portal-contract";
import type { AopdConfig } from "../aopd-config.js";
import type { DecisionReason, ProofKind, ProofRow } from "../database/database-schema.js";
import type { Proof } from "../proofs/proof.js";

/** A cell's value before it is written: text, an instant, or nothing (an empty cell). */
export type ExportCellValue = string | Date | null;

/** One column of the proof export, read by both export lanes (rows written here, and rows from COPY). */
export interface ProofExportColumn {
  header: string;
  /** Column width in characters, wide enough for the usual value. */
  width: number;
  /**
   * `date` cells carry an Excel date number in UTC shown in the export's date format
   * (`exportDateFormat`); `text` cells are strings; an `asset name` cell is the text of the asset
   * code its `sql` reads.
   */
  type: "text" | "date" | "asset name";
  value(proof: Proof, assetName: (code: string) => string | undefined): ExportCellValue;
  /** The same value in SQL over the proof row `p`, for the export through COPY: null where `value` gives null. */
  sql: string;
}

/**
 * Where a kind's columns stand in the proof sheet (export/proof-export-columns.ts lays the sheet
 * out): beside the address (how it is to be given), after the request's common fields (what was
 * asked and given), after the assessment (the evidence received), after the decision (what a check
 * found). Within a section, kinds follow the registry's order.
 */
export type ExportSection = "address" | "request" | "evidence" | "findings";

/** The columns a public view reads; `publicProofColumns` selects exactly these. */
export type PublicProofSource = Pick<
  ProofRow,
  | "id"
  | "kind"
  | "status"
  | "asset"
  | "created_at"
  | "updated_at"
  | "due_at"
  | "address"
  | "format"
  | "message"
  | "xpub_required"
  | "signin_nonce"
  | "amount"
  | "deposit_address"
  | "tx_id"
  | "media_content_type"
  | "media_byte_size"
  | "media_sha256"
  | "media_uploaded_at"
  | "left_for_review"
>;

export const publicProofColumns = [
  "id",
  "kind",
  "status",
  "asset",
  "created_at",
  "updated_at",
  "due_at",
  "address",
  "format",
  "message",
  "xpub_required",
  "signin_nonce",
  "amount",
  "deposit_address",
  "tx_id",
  "media_content_type",
  "media_byte_size",
  "media_sha256",
  "media_uploaded_at",
  "left_for_review",
] as const satisfies readonly (keyof PublicProofSource)[];

/**
 * One proof kind, whole: what every part of aopd that treats kinds alike reads of it through the
 * registry (`proofKinds`). Its requests, submissions and assessment are the module's own functions,
 * called by the edges by name; its GraphQL types are its schema file.
 */
export interface ProofKindModule<Name extends ProofKind = ProofKind> {
  /** The `kind` of its rows, of the portal's view and of the export's Kind column. */
  name: Name;
  /** Its GraphQL type. */
  typename: Proof["__typename"];
  /**
   * Who decides its proofs: an officer (`assess…Proof`, reopening, four eyes), or its evidence
   * itself (a verified signature is the decision).
   */
  decidedBy: "officer" | "evidence";
  /**
   * Of a kind its evidence decides: whether the evidence may leave one of its proofs to an officer
   * instead (`left_for_review`: a valid signature of a LISTED address under the refusal policy).
   * Such a proof is decided as an officer-decided kind's is (`assess…Proof`, four eyes, reopening); the rule
   * is `officerDecides` (proof-kinds.ts). False for a kind an officer decides anyway.
   */
  leavesForReview: boolean;
  /** The reason codes a decision of this kind may name, in the order a form lists them; none when no officer ever decides it. */
  decisionReasons: readonly DecisionReason[];
  /** Its columns of the proof export, by the section of the sheet they stand in. */
  exportColumns: Partial<Record<ExportSection, readonly ProofExportColumn[]>>;
  /** Its part of the portal's view of a proof: `PublicProofView[name]`, for one of its proofs. */
  portalView(config: AopdConfig, row: PublicProofSource, credential: string): NonNullable<PublicProofView[Name]>;
  /** Its types of the subgraph's schema: the proof type, its request, its filter conditions (assembled into aopd.graphql). */
  schemaFile: URL;
}

import type { Decision } from "../proofs/decision.js";
import { screeningOfProof, type Proof } from "../proofs/proof.js";
import type { ProofExportColumn } from "../kinds/proof-kind.js";
import { kindExportColumns, kindNameOf, officerAssessedKinds, proofKinds } from "../kinds/proof-kinds.js";
import { columnLetter } from "../xlsx/worksheet-xml.js";

export type { ExportCellValue, ProofExportColumn } from "../kinds/proof-kind.js";

/** The kinds an officer decides proofs of (a signature proof when left for review): their proofs carry an assessment and a decision. */
const officerAssessed = proofKinds.filter((kind) => officerAssessedKinds.includes(kind.name));
const officerDecided = new Set<Proof["__typename"]>(officerAssessed.map((kind) => kind.typename));
const decided = (proof: Proof) =>
  officerDecided.has(proof.__typename) ? (proof as Proof & { assessment?: string | null; decision?: Decision | null }) : undefined;
const decision = (proof: Proof) => decided(proof)?.decision ?? null;
const officerKindsSql = officerAssessed.map((kind) => `'${kind.name}'`).join(", ");

/**
 * The columns of the proof export, in order: every field of every proof kind, so one sheet holds
 * all kinds; a field the proof's kind does not have is an empty cell. The sheet's own columns are
 * here; each kind's stand in its module (`exportColumns`), placed by section. A media proof's file
 * is not in the sheet, only what identifies it (type, size, SHA-256): the file is downloaded on its
 * own. Ids and amounts are text: a UUID is not a number, and an amount in the lowest denomination
 * can have 78 digits, far past the 15 significant digits of an Excel number. See docs/xlsx-export.md.
 */
export const proofExportColumns: readonly ProofExportColumn[] = [
  { header: "ID", width: 38, type: "text", value: (p) => p.id, sql: "p.id::text" },
  { header: "Kind", width: 10, type: "text", value: (p) => kindNameOf(p), sql: "p.kind" },
  { header: "Created (UTC)", width: 24, type: "date", value: (p) => p.createdAt, sql: "p.created_at" },
  { header: "Updated (UTC)", width: 24, type: "date", value: (p) => p.updatedAt, sql: "p.updated_at" },
  { header: "Customer ID", width: 20, type: "text", value: (p) => p.customerId, sql: "p.customer_id" },
  { header: "Asset (DTI)", width: 14, type: "text", value: (p) => p.asset, sql: "p.asset" },
  { header: "Asset name", width: 20, type: "asset name", value: (p, assetName) => assetName(p.asset) ?? null, sql: "p.asset" },
  { header: "Address", width: 44, type: "text", value: (p) => p.address, sql: "p.address" },
  ...kindExportColumns("address"),
  { header: "Status", width: 11, type: "text", value: (p) => p.status, sql: "p.status" },
  { header: "Comment", width: 30, type: "text", value: (p) => p.comment, sql: "p.comment" },
  ...kindExportColumns("request"),
  { header: "Due (UTC)", width: 24, type: "date", value: (p) => p.dueAt, sql: "p.due_at" },
  {
    header: "Assessment",
    width: 11,
    type: "text",
    value: (p) => decided(p)?.assessment ?? null,
    sql: `CASE WHEN p.kind IN (${officerKindsSql}) THEN p.assessment END`,
  },
  ...kindExportColumns("evidence"),
  // The decision in force (docs/decisions.md); its outcome is the Assessment column. Empty while undecided.
  { header: "Decided (UTC)", width: 24, type: "date", value: (p) => decision(p)?.decidedAt ?? null, sql: "p.decided_at" },
  {
    header: "Decided by",
    width: 24,
    type: "text",
    value: (p) => decision(p)?.decider.username ?? decision(p)?.decider.subject ?? null,
    sql: "coalesce(p.decider_username, p.decider_subject)",
  },
  { header: "Decider subject", width: 38, type: "text", value: (p) => decision(p)?.decider.subject ?? null, sql: "p.decider_subject" },
  { header: "Decider client", width: 20, type: "text", value: (p) => decision(p)?.decider.client ?? null, sql: "p.decider_client" },
  { header: "Decision reason", width: 22, type: "text", value: (p) => decision(p)?.reason ?? null, sql: "p.decision_reason" },
  { header: "Decision reason text", width: 30, type: "text", value: (p) => decision(p)?.reasonText ?? null, sql: "p.decision_reason_text" },
  { header: "Decision comment", width: 30, type: "text", value: (p) => decision(p)?.comment ?? null, sql: "p.decision_comment" },
  ...kindExportColumns("findings"),
  // The screening against the sanctions list (docs/screening.md).
  { header: "Screening", width: 13, type: "text", value: (p) => screeningOfProof(p).status, sql: "p.screening_status" },
  { header: "Screening list", width: 12, type: "text", value: (p) => screeningOfProof(p).list, sql: "p.screening_list" },
  { header: "Screening list version", width: 12, type: "text", value: (p) => screeningOfProof(p).listVersion, sql: "p.screening_list_version" },
  { header: "Screened (UTC)", width: 24, type: "date", value: (p) => screeningOfProof(p).screenedAt, sql: "p.screened_at" },
  { header: "Listed entry asset", width: 8, type: "text", value: (p) => screeningOfProof(p).matchedEntry?.asset ?? null, sql: "p.screening_entry_asset" },
  {
    header: "Listed entry address",
    width: 44,
    type: "text",
    value: (p) => screeningOfProof(p).matchedEntry?.address ?? null,
    sql: "p.screening_entry_address",
  },
  { header: "Listed entry SDN uid", width: 10, type: "text", value: (p) => screeningOfProof(p).matchedEntry?.sdnUid ?? null, sql: "p.screening_entry_uid" },
  { header: "Listed entry name", width: 30, type: "text", value: (p) => screeningOfProof(p).matchedEntry?.sdnName ?? null, sql: "p.screening_entry_name" },
];

/** Each column's letter in the worksheet, in order. */
export const proofExportColumnLetters: readonly string[] = proofExportColumns.map((_, index) => columnLetter(index));

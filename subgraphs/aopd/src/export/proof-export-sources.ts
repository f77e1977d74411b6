import { proofExportColumns } from "./proof-export-columns.js";

export type ProofExportSourceKind = "text" | "plain" | "name" | "date";

export interface ProofExportSource {
  kind: ProofExportSourceKind;
  /** The value's SQL over the proof row `p`. */
  sql: string;
  /** The column's letter in the worksheet. */
  letter: string;
}

/**
 * How each column's value is read from the proof row `p`, and how much writing it needs:
 * - `text`: free text (customers' ids, addresses, comments, signatures...), which may hold
 *   anything, so it goes through `cellText` and `worksheetText`;
 * - `plain`: text that holds none of the characters the rules change and never starts or ends
 *   with white space, by its type or a CHECK of the table (uuid, numbers, the kinds, statuses,
 *   formats, assessments, media types, lowercase hex): written as it is;
 * - `name`: the asset's name, looked up by the asset code the SQL reads;
 * - `date`: a `timestamptz`.
 */
const sourceOfColumn: Record<string, { kind: ProofExportSourceKind; sql: string }> = {
  ID: { kind: "plain", sql: "p.id::text" },
  Kind: { kind: "plain", sql: "p.kind" },
  "Created (UTC)": { kind: "date", sql: "p.created_at" },
  "Updated (UTC)": { kind: "date", sql: "p.updated_at" },
  "Customer ID": { kind: "text", sql: "p.customer_id" },
  "Asset (DTI)": { kind: "text", sql: "p.asset" },
  "Asset name": { kind: "name", sql: "p.asset" },
  Address: { kind: "text", sql: "p.address" },
  "Address format": { kind: "plain", sql: "CASE WHEN p.kind = 'signature' THEN p.format END" },
  Status: { kind: "plain", sql: "p.status" },
  Comment: { kind: "text", sql: "p.comment" },
  Xpub: { kind: "text", sql: "CASE WHEN p.kind = 'signature' THEN p.xpub END" },
  Message: { kind: "text", sql: "CASE WHEN p.kind = 'signature' THEN p.message END" },
  Signature: { kind: "text", sql: "CASE WHEN p.kind = 'signature' THEN p.signature END" },
  "Amount (lowest denomination)": { kind: "plain", sql: "CASE WHEN p.kind = 'satoshi' THEN p.amount::text END" },
  "Sender address": { kind: "text", sql: "CASE WHEN p.kind = 'satoshi' THEN p.address END" },
  "Deposit address": { kind: "text", sql: "CASE WHEN p.kind = 'satoshi' THEN p.deposit_address END" },
  "Transaction ID": { kind: "text", sql: "CASE WHEN p.kind = 'satoshi' THEN p.tx_id END" },
  "Due (UTC)": { kind: "date", sql: "p.due_at" },
  Assessment: { kind: "plain", sql: "CASE WHEN p.kind IN ('satoshi', 'media') THEN p.assessment END" },
  "Media type": { kind: "plain", sql: "CASE WHEN p.kind = 'media' THEN p.media_content_type END" },
  "Media size (bytes)": { kind: "plain", sql: "CASE WHEN p.kind = 'media' THEN p.media_byte_size::text END" },
  "Media SHA-256": { kind: "plain", sql: "CASE WHEN p.kind = 'media' THEN p.media_sha256 END" },
  "Media uploaded (UTC)": { kind: "date", sql: "CASE WHEN p.kind = 'media' THEN p.media_uploaded_at END" },
};

/** Each export column's source, in the order of `proofExportColumns`: what the database reads for it. */
export const proofExportSources: readonly ProofExportSource[] = proofExportColumns.map((column, index) => {
  const source = sourceOfColumn[column.header];
  if (source === undefined || (source.kind === "date") !== (column.type === "date")) throw new Error(`The export column ${column.header} has no SQL source of its type.`);
  return { ...source, letter: String.fromCharCode(65 + index) };
});

import { proofExportColumns } from "./proof-export-columns.js";

export type ProofExportSourceKind = "text" | "name" | "date";

export interface ProofExportSource {
  kind: ProofExportSourceKind;
  /** The value's SQL over the proof row `p`. */
  sql: string;
  /** The column's letter in the worksheet. */
  letter: string;
}

/**
 * How each column's value is read from the proof row `p`: as `text` (written through `cellText`
 * and `worksheetText`), as `name` (the asset's name, looked up by the asset code the SQL reads),
 * or as a `date` (a `timestamptz`). A field the proof's kind does not have is null, an empty
 * cell, as `proofExportColumns` leaves it.
 */
const sourceOfColumn: Record<string, { kind: ProofExportSourceKind; sql: string }> = {
  ID: { kind: "text", sql: "p.id::text" },
  Kind: { kind: "text", sql: "p.kind" },
  "Created (UTC)": { kind: "date", sql: "p.created_at" },
  "Updated (UTC)": { kind: "date", sql: "p.updated_at" },
  "Customer ID": { kind: "text", sql: "p.customer_id" },
  "Asset (DTI)": { kind: "text", sql: "p.asset" },
  "Asset name": { kind: "name", sql: "p.asset" },
  Address: { kind: "text", sql: "p.address" },
  "Address format": { kind: "text", sql: "CASE WHEN p.kind = 'signature' THEN p.format END" },
  Status: { kind: "text", sql: "p.status" },
  Comment: { kind: "text", sql: "p.comment" },
  Xpub: { kind: "text", sql: "CASE WHEN p.kind = 'signature' THEN p.xpub END" },
  Message: { kind: "text", sql: "CASE WHEN p.kind = 'signature' THEN p.message END" },
  Signature: { kind: "text", sql: "CASE WHEN p.kind = 'signature' THEN p.signature END" },
  "Amount (lowest denomination)": { kind: "text", sql: "CASE WHEN p.kind = 'satoshi' THEN p.amount::text END" },
  "Sender address": { kind: "text", sql: "CASE WHEN p.kind = 'satoshi' THEN p.address END" },
  "Deposit address": { kind: "text", sql: "CASE WHEN p.kind = 'satoshi' THEN p.deposit_address END" },
  "Transaction ID": { kind: "text", sql: "CASE WHEN p.kind = 'satoshi' THEN p.tx_id END" },
  "Due (UTC)": { kind: "date", sql: "p.due_at" },
  Assessment: { kind: "text", sql: "CASE WHEN p.kind IN ('satoshi', 'media') THEN p.assessment END" },
  "Media type": { kind: "text", sql: "CASE WHEN p.kind = 'media' THEN p.media_content_type END" },
  "Media size (bytes)": { kind: "text", sql: "CASE WHEN p.kind = 'media' THEN p.media_byte_size::text END" },
  "Media SHA-256": { kind: "text", sql: "CASE WHEN p.kind = 'media' THEN p.media_sha256 END" },
  "Media uploaded (UTC)": { kind: "date", sql: "CASE WHEN p.kind = 'media' THEN p.media_uploaded_at END" },
};

/** Each export column's source, in the order of `proofExportColumns`: what the database reads for it. */
export const proofExportSources: readonly ProofExportSource[] = proofExportColumns.map((column, index) => {
  const source = sourceOfColumn[column.header];
  if (source === undefined || (source.kind === "date") !== (column.type === "date")) throw new Error(`The export column ${column.header} has no SQL source of its type.`);
  return { ...source, letter: String.fromCharCode(65 + index) };
});

import { screeningOfProof, type Proof } from "../proofs/proof.js";

/** A cell's value before it is written: text, an instant, or nothing (an empty cell). */
export type ExportCellValue = string | Date | null;

export interface ProofExportColumn {
  header: string;
  /** Column width in characters, wide enough for the usual value. */
  width: number;
  /**
   * `date` cells carry an Excel date number in UTC shown with {@link exportDateFormat}; `text` cells
   * are strings; an `asset name` cell is the text of the asset code its `sql` reads.
   */
  type: "text" | "date" | "asset name";
  value(proof: Proof, assetName: (code: string) => string | undefined): ExportCellValue;
  /** The same value in SQL over the proof row `p`, for the export through COPY: null where `value` gives null. */
  sql: string;
}

/**
 * How instants are shown. The value is an Excel date number computed in UTC (Excel dates have no
 * time zone), with milliseconds, so that sorting and arithmetic in the sheet work and nothing is
 * rounded away; the headers say "(UTC)" because a spreadsheet cannot.
 */
export const exportDateFormat = "yyyy-mm-dd hh:mm:ss.000";

const signature = (proof: Proof) => (proof.__typename === "AopdSignatureProof" ? proof : undefined);
const satoshi = (proof: Proof) => (proof.__typename === "AopdSatoshiProof" ? proof : undefined);
const media = (proof: Proof) => (proof.__typename === "AopdMediaProof" ? proof : undefined);
const decision = (proof: Proof) => satoshi(proof)?.decision ?? media(proof)?.decision ?? null;
const kindOf = { AopdSignatureProof: "signature", AopdSatoshiProof: "satoshi", AopdMediaProof: "media" } as const;

/**
 * The columns of the proof export, in order: every field of every proof kind, so one sheet holds
 * all kinds; a field the proof's kind does not have is an empty cell. A media proof's file is not
 * in the sheet, only what identifies it (type, size, SHA-256): the file is downloaded on its own. Ids and amounts are text:
 * a UUID is not a number, and an amount in the lowest denomination can have 78 digits, far past
 * the 15 significant digits of an Excel number. See docs/xlsx-export.md.
 */
export const proofExportColumns: readonly ProofExportColumn[] = [
  { header: "ID", width: 38, type: "text", value: (p) => p.id, sql: "p.id::text" },
  { header: "Kind", width: 10, type: "text", value: (p) => kindOf[p.__typename], sql: "p.kind" },
  { header: "Created (UTC)", width: 24, type: "date", value: (p) => p.createdAt, sql: "p.created_at" },
  { header: "Updated (UTC)", width: 24, type: "date", value: (p) => p.updatedAt, sql: "p.updated_at" },
  { header: "Customer ID", width: 20, type: "text", value: (p) => p.customerId, sql: "p.customer_id" },
  { header: "Asset (DTI)", width: 14, type: "text", value: (p) => p.asset, sql: "p.asset" },
  { header: "Asset name", width: 20, type: "asset name", value: (p, assetName) => assetName(p.asset) ?? null, sql: "p.asset" },
  { header: "Address", width: 44, type: "text", value: (p) => p.address, sql: "p.address" },
  { header: "Address format", width: 14, type: "text", value: (p) => signature(p)?.format ?? null, sql: "CASE WHEN p.kind = 'signature' THEN p.format END" },
  { header: "Status", width: 11, type: "text", value: (p) => p.status, sql: "p.status" },
  { header: "Comment", width: 30, type: "text", value: (p) => p.comment, sql: "p.comment" },
  { header: "Xpub", width: 40, type: "text", value: (p) => signature(p)?.xpub ?? null, sql: "CASE WHEN p.kind = 'signature' THEN p.xpub END" },
  { header: "Message", width: 40, type: "text", value: (p) => signature(p)?.message ?? null, sql: "CASE WHEN p.kind = 'signature' THEN p.message END" },
  { header: "Signature", width: 40, type: "text", value: (p) => signature(p)?.signature ?? null, sql: "CASE WHEN p.kind = 'signature' THEN p.signature END" },
  { header: "Amount (lowest denomination)", width: 22, type: "text", value: (p) => satoshi(p)?.amount ?? null, sql: "CASE WHEN p.kind = 'satoshi' THEN p.amount::text END" },
  { header: "Sender address", width: 44, type: "text", value: (p) => satoshi(p)?.senderAddress ?? null, sql: "CASE WHEN p.kind = 'satoshi' THEN p.address END" },
  { header: "Deposit address", width: 44, type: "text", value: (p) => satoshi(p)?.depositAddress ?? null, sql: "CASE WHEN p.kind = 'satoshi' THEN p.deposit_address END" },
  { header: "Transaction ID", width: 66, type: "text", value: (p) => satoshi(p)?.txId ?? null, sql: "CASE WHEN p.kind = 'satoshi' THEN p.tx_id END" },
  { header: "Due (UTC)", width: 24, type: "date", value: (p) => p.dueAt, sql: "p.due_at" },
  { header: "Assessment", width: 11, type: "text", value: (p) => satoshi(p)?.assessment ?? media(p)?.assessment ?? null, sql: "CASE WHEN p.kind IN ('satoshi', 'media') THEN p.assessment END" },
  { header: "Media type", width: 12, type: "text", value: (p) => media(p)?.contentType ?? null, sql: "CASE WHEN p.kind = 'media' THEN p.media_content_type END" },
  { header: "Media size (bytes)", width: 14, type: "text", value: (p) => (media(p)?.byteSize ?? null)?.toString() ?? null, sql: "CASE WHEN p.kind = 'media' THEN p.media_byte_size::text END" },
  { header: "Media SHA-256", width: 66, type: "text", value: (p) => media(p)?.sha256 ?? null, sql: "CASE WHEN p.kind = 'media' THEN p.media_sha256 END" },
  { header: "Media uploaded (UTC)", width: 24, type: "date", value: (p) => media(p)?.uploadedAt ?? null, sql: "CASE WHEN p.kind = 'media' THEN p.media_uploaded_at END" },
  // The decision in force (docs/decisions.md); its outcome is the Assessment column. Empty while undecided.
  { header: "Decided (UTC)", width: 24, type: "date", value: (p) => decision(p)?.decidedAt ?? null, sql: "p.decided_at" },
  { header: "Decided by", width: 24, type: "text", value: (p) => decision(p)?.decider.username ?? decision(p)?.decider.subject ?? null, sql: "coalesce(p.decider_username, p.decider_subject)" },
  { header: "Decider subject", width: 38, type: "text", value: (p) => decision(p)?.decider.subject ?? null, sql: "p.decider_subject" },
  { header: "Decider client", width: 20, type: "text", value: (p) => decision(p)?.decider.client ?? null, sql: "p.decider_client" },
  { header: "Decision reason", width: 22, type: "text", value: (p) => decision(p)?.reason ?? null, sql: "p.decision_reason" },
  { header: "Decision reason text", width: 30, type: "text", value: (p) => decision(p)?.reasonText ?? null, sql: "p.decision_reason_text" },
  { header: "Decision comment", width: 30, type: "text", value: (p) => decision(p)?.comment ?? null, sql: "p.decision_comment" },
  // What the chain check found about a Satoshi proof's transaction (docs/chain-checks.md); kept through a reopening.
  { header: "Block height", width: 12, type: "text", value: (p) => (satoshi(p)?.blockHeight ?? null)?.toString() ?? null, sql: "CASE WHEN p.kind = 'satoshi' THEN p.block_height::text END" },
  { header: "Block hash", width: 66, type: "text", value: (p) => satoshi(p)?.blockHash ?? null, sql: "CASE WHEN p.kind = 'satoshi' THEN p.block_hash END" },
  { header: "Confirmations", width: 14, type: "text", value: (p) => (satoshi(p)?.confirmations ?? null)?.toString() ?? null, sql: "CASE WHEN p.kind = 'satoshi' THEN p.confirmations::text END" },
  { header: "Amount received (lowest denomination)", width: 22, type: "text", value: (p) => satoshi(p)?.amountReceived ?? null, sql: "CASE WHEN p.kind = 'satoshi' THEN p.amount_received::text END" },
  { header: "Amount received (units)", width: 22, type: "text", value: (p) => satoshi(p)?.amountReceivedUnits ?? null, sql: "CASE WHEN p.kind = 'satoshi' THEN p.amount_received_units END" },
  { header: "Transaction senders", width: 44, type: "text", value: (p) => satoshi(p)?.transactionSenders?.join(", ") ?? null, sql: "CASE WHEN p.kind = 'satoshi' THEN array_to_string(p.transaction_senders, ', ') END" },
  { header: "Chain check failure", width: 30, type: "text", value: (p) => satoshi(p)?.failureReason ?? null, sql: "CASE WHEN p.kind = 'satoshi' THEN p.failure_reason END" },
  // The screening against the sanctions list (docs/screening.md).
  { header: "Screening", width: 13, type: "text", value: (p) => screeningOfProof(p).status, sql: "p.screening_status" },
  { header: "Screening list", width: 12, type: "text", value: (p) => screeningOfProof(p).list, sql: "p.screening_list" },
  { header: "Screening list version", width: 12, type: "text", value: (p) => screeningOfProof(p).listVersion, sql: "p.screening_list_version" },
  { header: "Screened (UTC)", width: 24, type: "date", value: (p) => screeningOfProof(p).screenedAt, sql: "p.screened_at" },
  { header: "Listed entry asset", width: 8, type: "text", value: (p) => screeningOfProof(p).matchedEntry?.asset ?? null, sql: "p.screening_entry_asset" },
  { header: "Listed entry address", width: 44, type: "text", value: (p) => screeningOfProof(p).matchedEntry?.address ?? null, sql: "p.screening_entry_address" },
  { header: "Listed entry SDN uid", width: 10, type: "text", value: (p) => screeningOfProof(p).matchedEntry?.sdnUid ?? null, sql: "p.screening_entry_uid" },
  { header: "Listed entry name", width: 30, type: "text", value: (p) => screeningOfProof(p).matchedEntry?.sdnName ?? null, sql: "p.screening_entry_name" },
];

/** A column's letters in a worksheet: A to Z, then AA, AB, ... (bijective base 26). */
export function columnLetter(index: number): string {
  let letters = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** Each column's letter in the worksheet, in order. */
export const proofExportColumnLetters: readonly string[] = proofExportColumns.map((_, index) => columnLetter(index));

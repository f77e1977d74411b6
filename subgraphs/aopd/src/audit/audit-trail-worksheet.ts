import { cellText } from "../xlsx/cell-text.js";
import { columnLetter, dateCell, textCell, worksheetStartXmlOf } from "../xlsx/worksheet-xml.js";
import type { WorksheetLayout } from "../xlsx/xlsx-workbook-writer.js";
import type { AuditEntryRow } from "../database/database-schema.js";

/** The columns of the audit trail's export, in order; every text goes through `cellText` (formula safety, Excel's cell limit). */
const columns: readonly { header: string; width: number; type: "text" | "date"; value(entry: AuditEntryRow): string | Date | null }[] = [
  { header: "Seq", width: 10, type: "text", value: (entry) => String(entry.seq ?? "") },
  { header: "Time (UTC)", width: 24, type: "date", value: (entry) => entry.occurred_at },
  { header: "Action", width: 20, type: "text", value: (entry) => entry.action },
  { header: "Proof", width: 38, type: "text", value: (entry) => entry.proof_id },
  { header: "Actor subject", width: 30, type: "text", value: (entry) => entry.actor_subject },
  { header: "Actor username", width: 20, type: "text", value: (entry) => entry.actor_username },
  { header: "Actor client", width: 20, type: "text", value: (entry) => entry.actor_client },
  { header: "System", width: 8, type: "text", value: (entry) => (entry.actor_system ? "yes" : "no") },
  { header: "Request id", width: 38, type: "text", value: (entry) => entry.request_id },
  { header: "Trace id", width: 34, type: "text", value: (entry) => entry.trace_id },
  { header: "Details", width: 60, type: "text", value: (entry) => entry.details },
  { header: "Hash", width: 66, type: "text", value: (entry) => entry.hash },
  { header: "Previous hash", width: 66, type: "text", value: (entry) => entry.previous_hash },
];
const letters = columns.map((_column, index) => columnLetter(index));

/**
 * The audit trail as worksheet rows, written by the same cell writers as the proof export: text only as
 * inline strings (a `details` text starting with `=` stays text; see xlsx-formula-injection).
 */
export const auditTrailWorksheet: WorksheetLayout<AuditEntryRow> = {
  startXml: worksheetStartXmlOf(columns),
  rowXml(rowNumber, entry) {
    let xml = `<row r="${rowNumber}">`;
    columns.forEach((column, index) => {
      const value = column.value(entry);
      if (value === null || value === "") return;
      const reference = `${letters[index]!}${rowNumber}`;
      xml += typeof value === "string" ? textCell(reference, cellText(value)) : dateCell(reference, value);
    });
    return `${xml}</row>`;
  },
  sheetName: (sheetNumber) => (sheetNumber === 1 ? "Audit trail" : `Audit trail ${sheetNumber}`),
};

import { cellStyle } from "./xlsx-package-parts.js";
import { worksheetText } from "./worksheet-text.js";

/**
 * The XML of a worksheet, written as text, for any rows (proofs, audit entries): a row is one
 * string built from its values, with no object per cell (what made exceljs cost about 15 µs a row).
 *
 * Every text is an inline string (`t="inlineStr"`): a constant, never a formula, whatever it
 * starts with (`=`, `+`, `-`, `@`), so no spreadsheet evaluates it (see
 * test/export/xlsx-formula-injection). There is no `<f>` element anywhere.
 */

/** Excel's date number of the Unix epoch, 1970-01-01 (in Excel's 1900 date system). */
const unixEpochSerial = 25_569;
const millisecondsPerDay = 86_400_000;

/** What a sheet's column is: its header, its width in characters, and whether its cells are dates. */
export interface WorksheetColumn {
  header: string;
  width: number;
  type: string;
}

/** A column's letters in a worksheet: A to Z, then AA, AB, ... (bijective base 26). */
export function columnLetter(index: number): string {
  let letters = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** The start of a worksheet with these columns: the header row frozen above the rows, the column widths, then the header row. */
export function worksheetStartXmlOf(columns: readonly WorksheetColumn[]): string {
  const letters = columns.map((_column, index) => columnLetter(index));
  const columnsXml =
    "<cols>" +
    columns
      .map(
        (column, index) =>
          `<col min="${index + 1}" max="${index + 1}" width="${column.width}" customWidth="1"${column.type === "date" ? ` style="${cellStyle.date}"` : ""}/>`,
      )
      .join("") +
    "</cols>";
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
    '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>' +
    '<sheetFormatPr defaultRowHeight="15"/>' +
    columnsXml +
    "<sheetData>" +
    '<row r="1">' +
    columns.map((column, index) => textCell(`${letters[index]}1`, column.header, cellStyle.header)).join("") +
    "</row>"
  );
}

export const worksheetEndXml = "</sheetData></worksheet>";

/** A text cell: always an inline string, never a formula (the text already made writable by `cellText`). */
export function textCell(reference: string, text: string, style?: number): string {
  return `<c r="${reference}"${style === undefined ? "" : ` s="${style}"`} t="inlineStr">${inlineStringXml(text)}</c>`;
}

/** The content of an inline string cell holding `text` (already made writable by `cellText`). */
export function inlineStringXml(text: string): string {
  // Without xml:space="preserve" a reader may trim the text's leading and trailing white space.
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  const space = first <= 32 || last <= 32 ? ' xml:space="preserve"' : "";
  return `<is><t${space}>${worksheetText(text)}</t></is>`;
}

/** The instant as Excel's date number in UTC, with its milliseconds, shown in the date format. */
export function dateCell(reference: string, instant: Date): string {
  return `<c r="${reference}" s="${cellStyle.date}"><v>${instant.getTime() / millisecondsPerDay + unixEpochSerial}</v></c>`;
}

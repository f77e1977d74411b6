/**
 * The parts of an XLSX package (ECMA-376 Part 1) other than the worksheets: what a reader needs to
 * find the sheets and the one date format. Kept to the minimum Excel, LibreOffice, SheetJS and
 * exceljs open without a repair prompt: no theme, no shared strings, no document properties.
 */

const xmlDeclaration = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const mainNamespace = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const relationshipNamespace = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const packageRelationshipNamespace = "http://schemas.openxmlformats.org/package/2006/relationships";

/**
 * How instants are shown. The value is an Excel date number computed in UTC (Excel dates have no
 * time zone), with milliseconds, so that sorting and arithmetic in the sheet work and nothing is
 * rounded away; headers say "(UTC)" because a spreadsheet cannot.
 */
export const exportDateFormat = "yyyy-mm-dd hh:mm:ss.000";

/** Indexes into `cellXfs` of {@link stylesXml}, as worksheet cells name them in `s="…"`. */
export const cellStyle = { plain: 0, date: 1, header: 2 } as const;

export const worksheetPath = (sheetNumber: number) => `xl/worksheets/sheet${sheetNumber}.xml`;

export function contentTypesXml(sheetCount: number): string {
  const sheets = Array.from(
    { length: sheetCount },
    (_, index) => `<Override PartName="/${worksheetPath(index + 1)}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
  ).join("");
  return (
    `${xmlDeclaration}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
    `${sheets}</Types>`
  );
}

export const packageRelationshipsXml =
  `${xmlDeclaration}<Relationships xmlns="${packageRelationshipNamespace}">` +
  `<Relationship Id="rId1" Type="${relationshipNamespace}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

/** Sheet names come from the writer (`Proofs`, `Proofs 2`, ...), never from data, so they need no escaping. */
export function workbookXml(sheetNames: readonly string[]): string {
  const sheets = sheetNames.map((name, index) => `<sheet name="${name}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`).join("");
  return `${xmlDeclaration}<workbook xmlns="${mainNamespace}" xmlns:r="${relationshipNamespace}"><bookViews><workbookView/></bookViews><sheets>${sheets}</sheets></workbook>`;
}

export function workbookRelationshipsXml(sheetCount: number): string {
  const sheets = Array.from(
    { length: sheetCount },
    (_, index) => `<Relationship Id="rId${index + 1}" Type="${relationshipNamespace}/worksheet" Target="worksheets/sheet${index + 1}.xml"/>`,
  ).join("");
  return (
    `${xmlDeclaration}<Relationships xmlns="${packageRelationshipNamespace}">${sheets}` +
    `<Relationship Id="rId${sheetCount + 1}" Type="${relationshipNamespace}/styles" Target="styles.xml"/></Relationships>`
  );
}

/** Custom number formats start at id 164; the ones below are Excel's built-ins. */
const dateFormatId = 164;

/** Three cell styles, in the order of {@link cellStyle}: plain, the date format, bold (the header). */
export const stylesXml =
  `${xmlDeclaration}<styleSheet xmlns="${mainNamespace}">` +
  `<numFmts count="1"><numFmt numFmtId="${dateFormatId}" formatCode="${exportDateFormat}"/></numFmts>` +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  `<xf numFmtId="${dateFormatId}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';

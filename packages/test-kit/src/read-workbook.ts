import * as XLSX from "xlsx";

/** A cell as an independent reader (SheetJS) sees it: its type, value, formula and number format. */
export interface ReadCell {
  t: string;
  v: string | number | boolean | undefined;
  f: string | undefined;
  z: string | undefined;
}

export interface ReadSheet {
  name: string;
  /** Rows top to bottom, each with one entry per column up to the last column of the sheet; null where there is no cell. */
  rows: (ReadCell | null)[][];
}

/**
 * Reads an XLSX file with SheetJS, a reader that shares no code with the export's writer, so a test that passes
 * proves the file, not the writer's own idea of it. Dates are read as raw Excel numbers (no
 * `cellDates`), so that no time zone of the test machine takes part.
 */
export function readWorkbook(file: Buffer): ReadSheet[] {
  const book = XLSX.read(file, { type: "buffer", cellFormula: true, cellNF: true, cellDates: false, dense: false });
  return book.SheetNames.map((name) => {
    const sheet = book.Sheets[name] as XLSX.WorkSheet;
    const range = XLSX.utils.decode_range(sheet["!ref"] ?? "A1:A1");
    const rows: (ReadCell | null)[][] = [];
    for (let r = range.s.r; r <= range.e.r; r += 1) {
      const row: (ReadCell | null)[] = [];
      for (let c = 0; c <= range.e.c; c += 1) {
        const cell = sheet[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined;
        row.push(cell ? { t: cell.t, v: cell.v as ReadCell["v"], f: cell.f, z: cell.z === undefined ? undefined : String(cell.z) } : null);
      }
      rows.push(row);
    }
    return { name, rows };
  });
}

/** The XML of every worksheet in the file, straight from the zip, for checks below the reader's view. */
export function worksheetXml(file: Buffer): string[] {
  const zip = XLSX.CFB.read(file, { type: "buffer" }) as { FullPaths: string[]; FileIndex: { content: Uint8Array }[] };
  return zip.FullPaths.flatMap((path, index) =>
    /xl\/worksheets\/sheet\d+\.xml$/.test(path) ? [Buffer.from((zip.FileIndex[index] as { content: Uint8Array }).content).toString("utf8")] : [],
  );
}

/** The instant an Excel date number stands for, read as UTC (the export writes UTC). */
export function excelNumberToIso(value: number): string {
  return new Date(Math.round((value - 25_569) * 86_400_000)).toISOString();
}

import { once } from "node:events";
import { Writable } from "node:stream";
import ExcelJS from "exceljs";
import type { Proof } from "../proofs/proof.js";
import { cellText } from "./cell-text.js";
import { exportDateFormat, proofExportColumns } from "./proof-export-columns.js";

/** Excel's last row is 1,048,576; one is the header, so a sheet holds this many proofs. */
export const maxProofRowsPerSheet = 1_048_575;

export interface XlsxProofWriterOptions {
  /** The display name of an asset code; unknown codes leave the cell empty. */
  assetName: (code: string) => string | undefined;
  /** Proofs per sheet before the export continues on a further sheet. @default 1_048_575 */
  rowsPerSheet?: number;
}

/** One style object per column, shared by all its cells (see `add`). */
const cellStyles: readonly Partial<ExcelJS.Style>[] = proofExportColumns.map((column) => (column.type === "date" ? { numFmt: exportDateFormat } : {}));

/** The archiver's input stream: readable-stream 2 (archiver's own copy) has `_writableState` but no `writableNeedDrain`. */
type ArchiverInput = Writable & { _writableState?: { needDrain?: boolean } };

type ZipWithEvents = {
  on(event: "entry", listener: (entry: { name: string }) => void): void;
  on(event: "error", listener: (error: Error) => void): void;
};

/**
 * Writes proofs into an XLSX workbook as they come, with exceljs's streaming writer: each row is
 * turned into XML and compressed when it is added, so memory holds the compressed file and not
 * the rows. Shared strings are off: they would keep every distinct string in memory until the end.
 * Styles are on only for the date format (and the bold header).
 *
 * Every text cell is written as a string cell (`t="str"`, no `<f>` element): exceljs makes a
 * formula only from a `{ formula }` object, which this writer never passes, so text such as
 * `=HYPERLINK(...)` is shown as text and never evaluated (see test/export/xlsx-formula-injection).
 */
export class XlsxProofWriter {
  readonly #chunks: Buffer[] = [];
  readonly #workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  readonly #assetName: (code: string) => string | undefined;
  readonly #rowsPerSheet: number;
  #sheet: ExcelJS.Worksheet | undefined;
  #sheetRows = 0;
  #sheetCount = 0;
  #rows = 0;

  constructor(options: XlsxProofWriterOptions) {
    const chunks = this.#chunks;
    const output = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    });
    this.#workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
    this.#workbook.creator = "compliance-graph aopd";
    this.#assetName = options.assetName;
    this.#rowsPerSheet = options.rowsPerSheet ?? maxProofRowsPerSheet;
    if (!Number.isSafeInteger(this.#rowsPerSheet) || this.#rowsPerSheet < 1 || this.#rowsPerSheet > maxProofRowsPerSheet) {
      throw new Error(`rowsPerSheet must be between 1 and ${maxProofRowsPerSheet}.`);
    }
  }

  /** How many proofs have been written. */
  get rows(): number {
    return this.#rows;
  }

  /** Appends proofs in order; resolves once the compressor has caught up and more may follow. */
  async add(proofs: readonly Proof[]): Promise<void> {
    for (const proof of proofs) {
      if (this.#sheet === undefined || this.#sheetRows === this.#rowsPerSheet) await this.#nextSheet();
      const values: (string | Date | undefined)[] = new Array(proofExportColumns.length);
      for (let i = 0; i < proofExportColumns.length; i += 1) {
        const value = (proofExportColumns[i] as (typeof proofExportColumns)[number]).value(proof, this.#assetName);
        // An empty value leaves the cell out: no cell is lighter than an empty one, and reads the same.
        values[i] = value === null || value === "" ? undefined : typeof value === "string" ? cellText(value) : value;
      }
      const row = this.#sheet!.addRow(values);
      // exceljs gives each cell a fresh style object and then looks styles up by rendering them
      // to XML, the largest cost of a row; it caches by object identity, so shared objects skip it.
      row.eachCell((cell, column) => {
        cell.style = cellStyles[column - 1] as Partial<ExcelJS.Style>;
      });
      row.commit();
      this.#sheetRows += 1;
      this.#rows += 1;
    }
    await this.#compressorCaughtUp();
  }

  /**
   * Backpressure. exceljs hands the sheet's XML to the zip archiver without waiting for it, and
   * rows turn into XML faster than zlib compresses it, so without this the uncompressed XML of
   * the whole export could pile up in memory (measured: 16 MB of XML waiting after 100,000 rows of a
   * fast source). The archiver reads the sheet through a stream exceljs keeps in `pipes`; once
   * that stream holds more than its high-water mark it needs a drain, and the next rows wait for it.
   */
  async #compressorCaughtUp(): Promise<void> {
    const stream = (this.#sheet as unknown as { stream?: { pipes?: ArchiverInput[] } } | undefined)?.stream;
    for (const pipe of stream?.pipes ?? []) {
      if (pipe.writableNeedDrain ?? pipe._writableState?.needDrain) await once(pipe, "drain");
    }
  }

  /** Finishes the workbook and returns the whole file; the writer cannot be used afterwards. */
  async finish(): Promise<Buffer> {
    if (this.#sheet === undefined) await this.#nextSheet();
    await this.#workbook.commit();
    const file = Buffer.concat(this.#chunks);
    this.#chunks.length = 0;
    return file;
  }

  async #nextSheet(): Promise<void> {
    const previous = this.#sheet;
    if (previous) {
      // The zip stores entries one after another: rows of the next sheet would wait, in memory,
      // until the archiver has compressed this one. So the next sheet starts once it has.
      const sheetFile = `xl/worksheets/sheet${this.#sheetCount}.xml`;
      const zip = (this.#workbook as unknown as { zip: ZipWithEvents }).zip;
      const zipped = new Promise<void>((resolve, reject) => {
        zip.on("entry", (entry) => {
          if (entry.name === sheetFile) resolve();
        });
        zip.on("error", reject);
      });
      previous.commit();
      await zipped;
    }
    this.#sheetCount += 1;
    const sheet = this.#workbook.addWorksheet(this.#sheetCount === 1 ? "Proofs" : `Proofs ${this.#sheetCount}`, {
      views: [{ state: "frozen", ySplit: 1 }],
    });
    sheet.columns = proofExportColumns.map((column) => ({
      width: column.width,
      ...(column.type === "date" ? { style: { numFmt: exportDateFormat } } : {}),
    }));
    const header = sheet.addRow(proofExportColumns.map((column) => column.header));
    header.font = { bold: true };
    header.commit();
    this.#sheet = sheet;
    this.#sheetRows = 0;
  }
}

import type { Writable } from "node:stream";
import { worksheetEndXml } from "./worksheet-xml.js";
import { StreamingZipWriter } from "./streaming-zip-writer.js";
import { contentTypesXml, packageRelationshipsXml, stylesXml, workbookRelationshipsXml, workbookXml, worksheetPath } from "./xlsx-package-parts.js";

/**
 * Rows are handed to the zip in pieces of about this many characters: small enough that the text
 * never becomes one large string to flatten and copy (measured: a little less CPU per row than
 * whole batches of 2,000 rows), large enough that stream overhead per piece does not count.
 */
const flushCharacters = 65_536;

/** Excel's last row is 1,048,576; one is the header, so a sheet holds this many rows. */
export const maxRowsPerSheet = 1_048_575;

/** What a workbook's sheets hold: their opening XML (columns and header row), each row's XML, their names. */
export interface WorksheetLayout<Row> {
  startXml: string;
  rowXml(rowNumber: number, row: Row): string;
  /** The name of sheet `sheetNumber` (from 1): written as is, so never taken from data. */
  sheetName(sheetNumber: number): string;
}

export interface XlsxWorkbookWriterOptions {
  /** Where the XLSX file goes, as it is written; ended by `finish`. */
  output: Writable;
  /** Rows per sheet before the export continues on a further sheet. @default 1_048_575 */
  rowsPerSheet?: number;
  /**
   * zlib's level for the zip's deflate, 1 (fastest) to 9 (smallest). Level 1 gives files about a
   * tenth larger than level 6 and takes half the CPU (measured: about 4.5 against 9 µs a row).
   * @default 1
   */
  compressionLevel?: number;
}

/**
 * Writes rows (proofs, audit entries) into an XLSX workbook as they come: each batch becomes worksheet XML and
 * goes into the zip (`StreamingZipWriter`: deflate in zlib, off the JavaScript thread), which
 * writes to `output`. Memory holds one piece of XML and the streams' buffers, not the file: `add`
 * resolves only once the zip has taken the batch, and the zip takes it only as fast as `output`
 * drains.
 *
 * Rows come as values (`add`, which writes their XML through the layout) or as finished row XML
 * (`addRowXmlBytes`, as the proof export's `CopyRowXmlTranscoder` makes it).
 *
 * The package parts that list the sheets are written last, once the number of sheets is known;
 * readers find parts through the zip's central directory, in any order.
 */
export class XlsxWorkbookWriter<Row> {
  readonly #zip: StreamingZipWriter;
  readonly #layout: WorksheetLayout<Row>;
  readonly #rowsPerSheet: number;
  #sheetOpen = false;
  #sheetRows = 0;
  #sheetCount = 0;
  #rows = 0;

  constructor(options: XlsxWorkbookWriterOptions, layout: WorksheetLayout<Row>) {
    this.#layout = layout;
    this.#rowsPerSheet = options.rowsPerSheet ?? maxRowsPerSheet;
    if (!Number.isSafeInteger(this.#rowsPerSheet) || this.#rowsPerSheet < 1 || this.#rowsPerSheet > maxRowsPerSheet) {
      throw new Error(`rowsPerSheet must be between 1 and ${maxRowsPerSheet}.`);
    }
    this.#zip = new StreamingZipWriter(options.output, { level: options.compressionLevel ?? 1 });
  }

  /** How many proofs have been written. */
  get rows(): number {
    return this.#rows;
  }

  /** Proofs per sheet: `CopyRowXmlTranscoder` numbers the rows with the same figure. */
  get rowsPerSheet(): number {
    return this.#rowsPerSheet;
  }

  /** Appends rows in order; resolves once the zip has taken them and more may follow. */
  async add(rows: readonly Row[]): Promise<void> {
    let xml = "";
    for (const row of rows) {
      if (!this.#sheetOpen || this.#sheetRows === this.#rowsPerSheet) {
        await this.#write(xml);
        xml = "";
        await this.#nextSheet();
      }
      this.#sheetRows += 1;
      this.#rows += 1;
      // The sheet's first row is the header: a row's number is one past its place in the sheet.
      xml += this.#layout.rowXml(this.#sheetRows + 1, row);
      if (xml.length > flushCharacters) {
        await this.#write(xml);
        xml = "";
      }
    }
    await this.#write(xml);
  }

  /**
   * Appends row XML as bytes (from `CopyRowXmlTranscoder`): `rowsEnded` rows end within `xml`, and
   * its last row may go on in the next call. The caller hands on its bytes right after every
   * `rowsPerSheet`-th row, so that bytes arriving when the sheet is full start the next sheet.
   */
  async addRowXmlBytes(xml: Buffer, rowsEnded: number): Promise<void> {
    if (!this.#sheetOpen || this.#sheetRows === this.#rowsPerSheet) await this.#nextSheet();
    this.#sheetRows += rowsEnded;
    this.#rows += rowsEnded;
    await this.#writeBytes(xml);
  }

  /** Writes the last parts and ends the file; resolves once `output` has everything. */
  async finish(): Promise<void> {
    if (!this.#sheetOpen) await this.#nextSheet();
    await this.#endSheet();
    const sheetNames = Array.from({ length: this.#sheetCount }, (_, index) => this.#layout.sheetName(index + 1));
    this.#zip.addEntry("xl/styles.xml", stylesXml);
    this.#zip.addEntry("xl/workbook.xml", workbookXml(sheetNames));
    this.#zip.addEntry("xl/_rels/workbook.xml.rels", workbookRelationshipsXml(this.#sheetCount));
    this.#zip.addEntry("_rels/.rels", packageRelationshipsXml);
    this.#zip.addEntry("[Content_Types].xml", contentTypesXml(this.#sheetCount));
    await this.#zip.finish();
  }

  /** Stops writing after a failure elsewhere (the rows could not be read): the file stays incomplete. */
  abort(): void {
    this.#zip.abort();
  }

  /**
   * Hands XML to the current sheet's deflate and waits while it holds more than its buffer: this
   * wait is the backpressure that keeps rows from piling up in memory.
   */
  async #write(xml: string): Promise<void> {
    if (xml !== "") await this.#writeBytes(Buffer.from(xml, "utf8"));
  }

  async #writeBytes(xml: Buffer): Promise<void> {
    if (!this.#zip.write(xml)) await this.#zip.drained();
  }

  async #nextSheet(): Promise<void> {
    if (this.#sheetOpen) await this.#endSheet();
    this.#sheetCount += 1;
    this.#zip.startEntry(worksheetPath(this.#sheetCount));
    this.#sheetOpen = true;
    this.#sheetRows = 0;
    await this.#write(this.#layout.startXml);
  }

  async #endSheet(): Promise<void> {
    await this.#write(worksheetEndXml);
    await this.#zip.endEntry();
  }
}

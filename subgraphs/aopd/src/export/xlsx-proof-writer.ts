import { PassThrough, type Writable } from "node:stream";
import { finished } from "node:stream/promises";
import archiver from "archiver";
import type { Proof } from "../proofs/proof.js";
import { proofRowXml, worksheetEndXml, worksheetStartXml } from "./proof-worksheet-xml.js";
import { contentTypesXml, packageRelationshipsXml, stylesXml, workbookRelationshipsXml, workbookXml, worksheetPath } from "./xlsx-package-parts.js";

/**
 * The modification time of every part. A fixed one makes the file a function of the proofs alone:
 * the same filter over the same proofs gives the same bytes, whichever route and second wrote it.
 */
const partDate = new Date(2000, 0, 1);

/**
 * Rows are handed to the zip in pieces of about this many characters: small enough that the text
 * never becomes one large string to flatten and copy (measured: a little less CPU per row than
 * whole batches of 2,000 rows), large enough that stream overhead per piece does not count.
 */
const flushCharacters = 65_536;

/** Excel's last row is 1,048,576; one is the header, so a sheet holds this many proofs. */
export const maxProofRowsPerSheet = 1_048_575;

export interface XlsxProofWriterOptions {
  /** Where the XLSX file goes, as it is written; ended by `finish`. */
  output: Writable;
  /** The display name of an asset code; unknown codes leave the cell empty. */
  assetName: (code: string) => string | undefined;
  /** Proofs per sheet before the export continues on a further sheet. @default 1_048_575 */
  rowsPerSheet?: number;
  /**
   * zlib's level for the zip's deflate, 1 (fastest) to 9 (smallest). Level 1 gives files about a
   * tenth larger than level 6 and takes half the CPU (measured: about 4.5 against 9 µs a row).
   * @default 1
   */
  compressionLevel?: number;
}

/**
 * Writes proofs into an XLSX workbook as they come: each batch of rows becomes worksheet XML and
 * goes into archiver's zip stream (deflate in zlib, off the JavaScript thread), which writes to
 * `output`. Memory holds one batch's XML and the streams' buffers, not the file: `add` resolves
 * only once the zip has taken the batch, and the zip takes it only as fast as `output` drains.
 *
 * The package parts that list the sheets are written last, once the number of sheets is known;
 * readers find parts through the zip's central directory, in any order.
 */
export class XlsxProofWriter {
  readonly #zip: archiver.Archiver;
  readonly #assetName: (code: string) => string | undefined;
  readonly #rowsPerSheet: number;
  readonly #output: Writable;
  readonly #failed: Promise<never>;
  #sheet: PassThrough | undefined;
  #sheetRows = 0;
  #sheetCount = 0;
  #rows = 0;

  constructor(options: XlsxProofWriterOptions) {
    this.#assetName = options.assetName;
    this.#rowsPerSheet = options.rowsPerSheet ?? maxProofRowsPerSheet;
    if (!Number.isSafeInteger(this.#rowsPerSheet) || this.#rowsPerSheet < 1 || this.#rowsPerSheet > maxProofRowsPerSheet) {
      throw new Error(`rowsPerSheet must be between 1 and ${maxProofRowsPerSheet}.`);
    }
    this.#output = options.output;
    this.#zip = archiver("zip", { zlib: { level: options.compressionLevel ?? 1 } });
    // Whatever stops the file (the zip fails, the client goes away) rejects the next wait, so
    // that the export stops reading rows instead of waiting for a drain that never comes.
    this.#failed = new Promise<never>((_, reject) => {
      this.#zip.on("error", reject);
      this.#zip.on("warning", reject);
      options.output.on("error", reject);
      options.output.on("close", () => {
        if (!options.output.writableFinished) reject(new Error("The export's output was closed before the file was complete."));
      });
    });
    this.#failed.catch(() => undefined);
    this.#zip.pipe(options.output);
  }

  /** How many proofs have been written. */
  get rows(): number {
    return this.#rows;
  }

  /** Appends proofs in order; resolves once the zip has taken them and more may follow. */
  async add(proofs: readonly Proof[]): Promise<void> {
    let xml = "";
    for (const proof of proofs) {
      if (this.#sheet === undefined || this.#sheetRows === this.#rowsPerSheet) {
        await this.#write(xml);
        xml = "";
        this.#nextSheet();
      }
      this.#sheetRows += 1;
      this.#rows += 1;
      xml += proofRowXml(this.#sheetRows + 1, proof, this.#assetName);
      if (xml.length > flushCharacters) {
        await this.#write(xml);
        xml = "";
      }
    }
    await this.#write(xml);
  }

  /** Writes the last parts and ends the file; resolves once `output` has everything. */
  async finish(): Promise<void> {
    if (this.#sheet === undefined) this.#nextSheet();
    this.#sheet!.end(worksheetEndXml);
    const sheetNames = Array.from({ length: this.#sheetCount }, (_, index) => sheetName(index + 1));
    this.#zip.append(stylesXml, { name: "xl/styles.xml", date: partDate });
    this.#zip.append(workbookXml(sheetNames), { name: "xl/workbook.xml", date: partDate });
    this.#zip.append(workbookRelationshipsXml(this.#sheetCount), { name: "xl/_rels/workbook.xml.rels", date: partDate });
    this.#zip.append(packageRelationshipsXml, { name: "_rels/.rels", date: partDate });
    this.#zip.append(contentTypesXml(this.#sheetCount), { name: "[Content_Types].xml", date: partDate });
    await Promise.race([Promise.all([this.#zip.finalize(), finished(this.#output)]), this.#failed]);
  }

  /** Stops writing after a failure elsewhere (the rows could not be read): the file stays incomplete. */
  abort(): void {
    // Unpiped first: archiver's abort ends its stream, and `output` must not end as if complete.
    this.#zip.unpipe(this.#output);
    this.#zip.abort();
    this.#sheet?.destroy();
  }

  /**
   * Hands XML to the current sheet's stream and waits while it holds more than its buffer: the zip
   * reads a sheet only when it reaches it and as fast as it can compress and send, so this wait is
   * the backpressure that keeps rows from piling up in memory.
   */
  async #write(xml: string): Promise<void> {
    if (xml === "" || this.#sheet === undefined) return;
    if (this.#sheet.write(xml)) return;
    const sheet = this.#sheet;
    await Promise.race([new Promise<void>((resolve) => sheet.once("drain", resolve)), this.#failed]);
  }

  #nextSheet(): void {
    this.#sheet?.end(worksheetEndXml);
    this.#sheetCount += 1;
    this.#sheet = new PassThrough({ highWaterMark: 1 << 20 });
    this.#zip.append(this.#sheet, { name: worksheetPath(this.#sheetCount), date: partDate });
    this.#sheet.write(worksheetStartXml);
    this.#sheetRows = 0;
  }
}

function sheetName(sheetNumber: number): string {
  return sheetNumber === 1 ? "Proofs" : `Proofs ${sheetNumber}`;
}

import { parseTimestamptz } from "../database/timestamptz-parser.js";
import { cellText, maxCellCharacters } from "./cell-text.js";
import { inlineStringXml } from "./proof-worksheet-xml.js";
import type { ProofExportSource } from "./proof-export-sources.js";
import { cellStyle } from "./xlsx-package-parts.js";

/** Where the transcoder's output goes: bytes of rows, of which `rowsEnded` ended (the last may go on in the next call). */
export interface RowXmlBytesSink {
  addRowXmlBytes(xml: Buffer, rowsEnded: number): Promise<void>;
}

/** Output is handed on in pieces of about this size: large enough that per-piece costs vanish, small enough to stay in the CPU's cache. */
const pieceBytes = 128 * 1024;

const tab = 0x09;
const lineFeed = 0x0a;
const backslash = 0x5c;
const space = 0x20;

/** COPY's escapes (PostgreSQL writes only these on output) and the character each stands for. */
const copyEscapes: Record<number, string> = { 0x62: "\b", 0x66: "\f", 0x6e: "\n", 0x72: "\r", 0x74: "\t", 0x76: "\v", [backslash]: "\\" };

/**
 * Bytes after which a text cell may be written as it is: none of the characters `cellText` or
 * `worksheetText` changes (`&`, `<`, `>`, `_`, the controls), no COPY escape (a backslash), and
 * no 0xEF (the lead byte of U+FFFE and U+FFFF, and of a few thousand other characters, which then
 * take the general way). A text of at most `maxCellCharacters` bytes is never cut.
 */
const needsGeneralWay = new Uint8Array(256);
for (let byte = 0; byte < space; byte += 1) needsGeneralWay[byte] = 1;
for (const character of "&<>_\\") needsGeneralWay[character.charCodeAt(0)] = 1;
needsGeneralWay[0xef] = 1;

const ascii = (text: string) => Buffer.from(text, "latin1");

/**
 * Turns the proofs as PostgreSQL's `COPY ... TO STDOUT` writes them (text format: a line per row,
 * tab-separated fields in the order of `sources`, `\N` for null) into worksheet row XML, byte for
 * byte what `proofRowXml` writes for the same proofs (the property test in
 * test/export/proof-row-xml-query.test.ts compares the two).
 *
 * Why bytes: most cells hold text that needs no escaping, which is copied from COPY's bytes into the
 * output without becoming a JavaScript string at all; `pg`'s rows cost a string per column, the
 * row object and three dates per proof. Cells that need more (an escape, a cut, a control
 * character) are decoded and written by `cellText` and `inlineStringXml`, so both ways share one
 * set of rules. Dates must come as PostgreSQL writes a `timestamptz` in DateStyle ISO.
 *
 * The row numbers start again at 2 after every `rowsPerSheet` rows, and the output is handed on
 * right after a sheet's last row, so that the sink can start the next sheet there.
 */
export class CopyRowXmlTranscoder {
  readonly #sources: readonly ProofExportSource[];
  readonly #sink: RowXmlBytesSink;
  readonly #rowsPerSheet: number;
  /** Per column: `<c r="X` and the rest of its opening (after the row number) for text, date and name cells. */
  readonly #cellStarts: Buffer[];
  readonly #textOpen = ascii('" t="inlineStr"><is><t>');
  readonly #textOpenPreserved = ascii('" t="inlineStr"><is><t xml:space="preserve">');
  readonly #textClose = ascii("</t></is></c>");
  readonly #inlineOpen = ascii('" t="inlineStr">');
  readonly #cellClose = ascii("</c>");
  readonly #dateOpen = ascii(`" s="${cellStyle.date}"><v>`);
  readonly #dateClose = ascii("</v></c>");
  readonly #rowOpen = ascii('<row r="');
  readonly #rowOpenEnd = ascii('">');
  readonly #rowClose = ascii("</row>");
  /** The asset name cell's `<is>` element per asset code (latin1 key: codes are ASCII). */
  readonly #assetNameXml: Map<string, Buffer>;

  #output = Buffer.allocUnsafe(pieceBytes);
  #length = 0;
  #rowsEndedInOutput = 0;
  #rows = 0;
  /** The start of a line that the last chunk ended inside. */
  #carry: Buffer | undefined;

  constructor(options: { sources: readonly ProofExportSource[]; sink: RowXmlBytesSink; rowsPerSheet: number; assetNames: ReadonlyMap<string, string> }) {
    this.#sources = options.sources;
    this.#sink = options.sink;
    this.#rowsPerSheet = options.rowsPerSheet;
    this.#cellStarts = options.sources.map((source) => ascii(`<c r="${source.letter}`));
    this.#assetNameXml = new Map([...options.assetNames].filter(([, name]) => name !== "").map(([code, name]) => [code, Buffer.from(inlineStringXml(cellText(name)), "utf8")]));
  }

  /** Rows transcoded so far. */
  get rows(): number {
    return this.#rows;
  }

  /** Takes the next bytes of COPY's output; resolves once the sink has taken what they completed. */
  async write(chunk: Buffer): Promise<void> {
    const bytes = this.#carry ? Buffer.concat([this.#carry, chunk]) : chunk;
    this.#carry = undefined;
    let start = 0;
    for (;;) {
      const end = bytes.indexOf(lineFeed, start);
      if (end < 0) break;
      this.#row(bytes, start, end);
      start = end + 1;
      if (this.#rows % this.#rowsPerSheet === 0 || this.#length >= pieceBytes) await this.#handOn();
    }
    if (start < bytes.length) this.#carry = Buffer.from(bytes.subarray(start));
  }

  /** Hands on what is left; fails when COPY's output ended inside a row. */
  async end(): Promise<void> {
    if (this.#carry) throw new Error("COPY's output ended inside a row.");
    await this.#handOn();
  }

  async #handOn(): Promise<void> {
    if (this.#length === 0) return;
    const piece = this.#output.subarray(0, this.#length);
    const rowsEnded = this.#rowsEndedInOutput;
    // The sink may keep the piece (a stream holds it until written): the next output is a new buffer.
    this.#output = Buffer.allocUnsafe(pieceBytes);
    this.#length = 0;
    this.#rowsEndedInOutput = 0;
    await this.#sink.addRowXmlBytes(piece, rowsEnded);
  }

  #row(bytes: Buffer, start: number, end: number): void {
    const rowNumber = ascii(String((this.#rows % this.#rowsPerSheet) + 2));
    this.#append(this.#rowOpen);
    this.#append(rowNumber);
    this.#append(this.#rowOpenEnd);
    let fieldStart = start;
    for (let column = 0; column < this.#sources.length; column += 1) {
      let fieldEnd = bytes.indexOf(tab, fieldStart);
      if (fieldEnd < 0 || fieldEnd > end) fieldEnd = end;
      if (column === this.#sources.length - 1 && fieldEnd !== end) throw new Error("COPY's row has more fields than the export has columns.");
      const isNull = fieldEnd - fieldStart === 2 && bytes[fieldStart] === backslash && bytes[fieldStart + 1] === 0x4e;
      if (fieldEnd > fieldStart && !isNull) this.#cell(column, rowNumber, bytes, fieldStart, fieldEnd);
      fieldStart = fieldEnd + 1;
      if (fieldEnd === end && column < this.#sources.length - 1) throw new Error("COPY's row has fewer fields than the export has columns.");
    }
    this.#append(this.#rowClose);
    this.#rows += 1;
    this.#rowsEndedInOutput += 1;
  }

  #cell(column: number, rowNumber: Buffer, bytes: Buffer, start: number, end: number): void {
    const source = this.#sources[column] as ProofExportSource;
    if (source.kind === "name") {
      const name = this.#assetNameXml.get(bytes.toString("latin1", start, end));
      if (name === undefined) return;
      this.#cellStart(column, rowNumber, this.#inlineOpen);
      this.#append(name);
      this.#append(this.#cellClose);
    } else if (source.kind === "date") {
      const instant = parseTimestamptz(bytes.toString("latin1", start, end));
      if (!(instant instanceof Date)) throw new Error(`The export cannot write the instant ${String(instant)}.`);
      this.#cellStart(column, rowNumber, this.#dateOpen);
      this.#append(ascii(String(instant.getTime() / 86_400_000 + 25_569)));
      this.#append(this.#dateClose);
    } else if (this.#isWritableAsItIs(bytes, start, end)) {
      this.#cellStart(column, rowNumber, bytes[start] === space || bytes[end - 1] === space ? this.#textOpenPreserved : this.#textOpen);
      this.#appendRange(bytes, start, end);
      this.#append(this.#textClose);
    } else {
      this.#cellStart(column, rowNumber, this.#inlineOpen);
      this.#append(Buffer.from(inlineStringXml(cellText(decodeCopyText(bytes, start, end))), "utf8"));
      this.#append(this.#cellClose);
    }
  }

  #isWritableAsItIs(bytes: Buffer, start: number, end: number): boolean {
    if (end - start > maxCellCharacters) return false;
    for (let index = start; index < end; index += 1) if (needsGeneralWay[bytes[index] as number] === 1) return false;
    return true;
  }

  #cellStart(column: number, rowNumber: Buffer, rest: Buffer): void {
    this.#append(this.#cellStarts[column] as Buffer);
    this.#append(rowNumber);
    this.#append(rest);
  }

  #append(piece: Buffer): void {
    this.#appendRange(piece, 0, piece.length);
  }

  #appendRange(bytes: Buffer, start: number, end: number): void {
    const length = end - start;
    if (this.#length + length > this.#output.length) {
      // A cell larger than what is left (a long text with many `&`): the output grows for it.
      const grown = Buffer.allocUnsafe(Math.max(this.#output.length * 2, this.#length + length));
      this.#output.copy(grown, 0, 0, this.#length);
      this.#output = grown;
    }
    if (length < 32) for (let index = 0; index < length; index += 1) this.#output[this.#length + index] = bytes[start + index] as number;
    else bytes.copy(this.#output, this.#length, start, end);
    this.#length += length;
  }
}

/** A field of COPY's text format as the text it stands for. */
function decodeCopyText(bytes: Buffer, start: number, end: number): string {
  if (bytes.indexOf(backslash, start) < 0 || bytes.indexOf(backslash, start) >= end) return bytes.toString("utf8", start, end);
  const parts: string[] = [];
  let from = start;
  for (let index = start; index < end; index += 1) {
    if (bytes[index] !== backslash) continue;
    parts.push(bytes.toString("utf8", from, index));
    const escaped = bytes[index + 1] as number;
    parts.push(copyEscapes[escaped] ?? String.fromCharCode(escaped));
    index += 1;
    from = index + 1;
  }
  parts.push(bytes.toString("utf8", from, end));
  return parts.join("");
}

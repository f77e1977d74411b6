import { cellText, maxCellCharacters } from "../xlsx/cell-text.js";
import { inlineStringXml } from "../xlsx/worksheet-xml.js";
import { proofExportColumnLetters, proofExportColumns, type ProofExportColumn } from "./proof-export-columns.js";
import { cellStyle } from "../xlsx/xlsx-package-parts.js";

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
 * tab-separated fields in the order of `proofExportColumns`, each its `sql`, `\N` for null, instants as whole milliseconds
 * since 1970) into worksheet row XML, byte for byte what `proofRowXml` writes for the same proofs
 * (the property test in test/export/copy-row-xml-transcoder.test.ts compares the two).
 *
 * Why bytes: most cells hold text that needs no escaping, which is copied from COPY's bytes into the
 * output without becoming a JavaScript string at all; `pg`'s rows cost a string per column, the
 * row object and three dates per proof. One pass over a row finds its fields and whether each may
 * be written as it is. Cells that need more (an escape, a cut, a control character) are decoded
 * and written by `cellText` and `inlineStringXml`, so both ways share one set of rules.
 *
 * The row numbers start again at 2 after every `rowsPerSheet` rows, and the output is handed on
 * right after a sheet's last row, so that the sink can start the next sheet there.
 */
export class CopyRowXmlTranscoder {
  readonly #types: readonly ProofExportColumn["type"][] = proofExportColumns.map((column) => column.type);
  readonly #sink: RowXmlBytesSink;
  readonly #rowsPerSheet: number;
  /** Per column: `<c r="X`, before the row number. */
  readonly #cellStarts = proofExportColumnLetters.map((letter) => ascii(`<c r="${letter}`));
  /** The asset name cell's `<is>` element per asset code (latin1 key: codes are ASCII). */
  readonly #assetNameXml: Map<string, Buffer>;

  #output = Buffer.allocUnsafe(pieceBytes);
  #length = 0;
  #rowsEndedInOutput = 0;
  #rows = 0;
  /** The current row number's digits. */
  readonly #rowNumber = Buffer.alloc(16);
  #rowNumberLength = 0;
  /** The pieces of a row that the chunks so far ended inside. */
  #carry: Buffer[] = [];

  constructor(options: { sink: RowXmlBytesSink; rowsPerSheet: number; assetNames: ReadonlyMap<string, string> }) {
    this.#sink = options.sink;
    this.#rowsPerSheet = options.rowsPerSheet;
    this.#assetNameXml = new Map(
      [...options.assetNames].filter(([, name]) => name !== "").map(([code, name]) => [code, Buffer.from(inlineStringXml(cellText(name)), "utf8")]),
    );
  }

  /** Rows transcoded so far. */
  get rows(): number {
    return this.#rows;
  }

  /** Takes the next bytes of COPY's output; resolves once the sink has taken what they completed. */
  async write(chunk: Buffer): Promise<void> {
    let start = 0;
    if (this.#carry.length > 0) {
      // The pieces of a row are joined once its end arrives, so a row in many small pieces costs
      // one copy, not one per piece.
      const end = chunk.indexOf(lineFeed);
      if (end < 0) {
        this.#carry.push(Buffer.from(chunk));
        return;
      }
      const row = Buffer.concat([...this.#carry, chunk.subarray(0, end)]);
      this.#carry = [];
      start = end + 1;
      await this.#completed(row, 0, row.length);
    }
    for (;;) {
      const end = chunk.indexOf(lineFeed, start);
      if (end < 0) break;
      await this.#completed(chunk, start, end);
      start = end + 1;
    }
    if (start < chunk.length) this.#carry.push(Buffer.from(chunk.subarray(start)));
  }

  /** Writes one row, then hands the output on at the end of a sheet or once a piece is full. */
  async #completed(bytes: Buffer, start: number, end: number): Promise<void> {
    this.#row(bytes, start, end);
    if (this.#rows % this.#rowsPerSheet === 0 || this.#length >= pieceBytes) await this.#handOn();
  }

  /** Hands on what is left; fails when COPY's output ended inside a row. */
  async end(): Promise<void> {
    if (this.#carry.length > 0) throw new Error("COPY's output ended inside a row.");
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
    this.#rowNumberLength = this.#rowNumber.write(String((this.#rows % this.#rowsPerSheet) + 2), "latin1");
    this.#append(rowOpen);
    this.#appendRange(this.#rowNumber, 0, this.#rowNumberLength);
    this.#append(rowOpenEnd);
    const types = this.#types;
    let fieldStart = start;
    for (let column = 0; column < types.length; column += 1) {
      if (fieldStart > end) throw new Error("COPY's row has fewer fields than the export has columns.");
      // One pass finds the field's end and whether any byte needs the general way.
      let fieldEnd = fieldStart;
      let general = 0;
      while (fieldEnd < end) {
        const byte = bytes[fieldEnd] as number;
        if (byte === tab) break;
        general |= needsGeneralWay[byte] as number;
        fieldEnd += 1;
      }
      const isNull = fieldEnd - fieldStart === 2 && bytes[fieldStart] === backslash && bytes[fieldStart + 1] === 0x4e;
      if (fieldEnd > fieldStart && !isNull) this.#cell(column, bytes, fieldStart, fieldEnd, general === 1);
      fieldStart = fieldEnd + 1;
    }
    if (fieldStart !== end + 1) throw new Error("COPY's row has more fields than the export has columns.");
    this.#append(rowClose);
    this.#rows += 1;
    this.#rowsEndedInOutput += 1;
  }

  #cell(column: number, bytes: Buffer, start: number, end: number, general: boolean): void {
    const type = this.#types[column];
    if (type === "asset name") {
      const name = this.#assetNameXml.get(bytes.toString("latin1", start, end));
      if (name === undefined) return;
      this.#cellStart(column, inlineOpen);
      this.#append(name);
      this.#append(cellClose);
    } else if (type === "date") {
      this.#cellStart(column, dateOpen);
      this.#appendText(String(readInteger(bytes, start, end) / 86_400_000 + 25_569));
      this.#append(dateClose);
    } else if (!general && end - start <= maxCellCharacters) {
      this.#cellStart(column, bytes[start] === space || bytes[end - 1] === space ? textOpenPreserved : textOpen);
      this.#appendRange(bytes, start, end);
      this.#append(textClose);
    } else {
      const xml = Buffer.from(inlineStringXml(cellText(decodeCopyText(bytes, start, end))), "utf8");
      this.#cellStart(column, inlineOpen);
      this.#append(xml);
      this.#append(cellClose);
    }
  }

  #cellStart(column: number, rest: Buffer): void {
    this.#append(this.#cellStarts[column] as Buffer);
    this.#appendRange(this.#rowNumber, 0, this.#rowNumberLength);
    this.#append(rest);
  }

  /** Makes room for `bytes` more: the output grows for a row larger than what is left (a long text with many `&`). */
  #reserve(bytes: number): void {
    if (this.#length + bytes <= this.#output.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#output.length * 2, this.#length + bytes));
    this.#output.copy(grown, 0, 0, this.#length);
    this.#output = grown;
  }

  #append(piece: Buffer): void {
    this.#appendRange(piece, 0, piece.length);
  }

  /** Copies bytes into the output: short runs byte by byte, which is cheaper than a native copy. */
  #appendRange(bytes: Buffer, start: number, end: number): void {
    this.#reserve(end - start);
    const output = this.#output;
    let at = this.#length;
    if (end - start > 48) at += bytes.copy(output, at, start, end);
    else for (let index = start; index < end; index += 1) output[at++] = bytes[index] as number;
    this.#length = at;
  }

  /** ASCII text (a number) into the output. */
  #appendText(text: string): void {
    this.#reserve(text.length);
    const output = this.#output;
    let at = this.#length;
    for (let index = 0; index < text.length; index += 1) output[at++] = text.charCodeAt(index);
    this.#length = at;
  }
}

const textOpen = ascii('" t="inlineStr"><is><t>');
const textOpenPreserved = ascii('" t="inlineStr"><is><t xml:space="preserve">');
const textClose = ascii("</t></is></c>");
const inlineOpen = ascii('" t="inlineStr">');
const cellClose = ascii("</c>");
const dateOpen = ascii(`" s="${cellStyle.date}"><v>`);
const dateClose = ascii("</v></c>");
const rowOpen = ascii('<row r="');
const rowOpenEnd = ascii('">');
const rowClose = ascii("</row>");

/** A decimal integer, possibly negative, as COPY writes a `bigint`. */
function readInteger(bytes: Buffer, start: number, end: number): number {
  const negative = bytes[start] === 0x2d;
  let value = 0;
  for (let index = negative ? start + 1 : start; index < end; index += 1) value = value * 10 + ((bytes[index] as number) - 48);
  return negative ? -value : value;
}

/** A field of COPY's text format as the text it stands for. */
function decodeCopyText(bytes: Buffer, start: number, end: number): string {
  const firstEscape = bytes.indexOf(backslash, start);
  if (firstEscape < 0 || firstEscape >= end) return bytes.toString("utf8", start, end);
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

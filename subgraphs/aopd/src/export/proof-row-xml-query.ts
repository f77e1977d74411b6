import type { FilterLimits } from "@compliance-graph/filter";
import { sql, type Kysely, type RawBuilder } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { selectProofs } from "../proofs/proof-query.js";
import { proofOrder } from "../proofs/proof-sort.js";
import { cellText, maxCellCharacters, truncationMarker, unwritableCharacterSubstitute } from "./cell-text.js";
import { proofExportSources } from "./proof-export-sources.js";
import { inlineStringXml } from "./proof-worksheet-xml.js";
import { cellStyle } from "./xlsx-package-parts.js";

/**
 * The proofs of an export as finished worksheet rows, built by PostgreSQL: each row of the result
 * is one `<row>` element, exactly the text `proofRowXml` writes for the same proof (the property
 * test in test/export/proof-row-xml-query.test.ts compares the two on random text, on PostgreSQL
 * and on PGlite). The database does the per-row work on its own core while this process only
 * hands the bytes to the zip: reading and parsing 24 columns, three dates and the proof object
 * per row, then building the row's XML, was about half of the JavaScript thread's time.
 *
 * The rules are those of `cellText` and `worksheetText`, written in SQL:
 * - the cut at {@link maxCellCharacters} UTF-16 code units, never inside a surrogate pair. A text
 *   of at most that many bytes is never cut (each UTF-16 unit takes at least one UTF-8 byte), so
 *   only longer ones count their units, and only texts that are cut take the slow path;
 * - the characters XML cannot carry become U+FFFD. PostgreSQL text holds neither U+0000 nor half a
 *   surrogate pair, so the other two kinds of `cellText` cannot occur here;
 * - `_xHHHH_` gets its underscore escaped, then `&`, `<`, `>` and CR become references. None of
 *   the four characters nor their references can make or break an `_xHHHH_`, so the order of the
 *   replacements does not change the result;
 * - `xml:space="preserve"` when the text starts or ends with white space or a control character
 *   kept as it is (tab, line feed, CR, space: the others became U+FFFD), a cut text ending with
 *   the marker;
 * - dates as Excel's serial number: whole milliseconds (as `pg` and PGlite read them), then
 *   `ms / 86,400,000 + 25,569` in double precision, printed in the shortest form that reads back
 *   the same number, as JavaScript does (`extra_float_digits = 1`, set by the export).
 *
 * The row numbers come from `row_number()` over the export's order, so that the sheets split
 * where the writer splits them: every `rowsPerSheet` proofs.
 */

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** White space a reader may trim: tab, line feed, CR and space, the characters at or below U+0020 that `cellText` keeps. */
const trimmable = "(9, 10, 13, 32)";
const cutAt = maxCellCharacters - truncationMarker.length;
const astral = "[\\U00010000-\\U0010FFFF]";
const unwritable = "[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\uFFFE\\uFFFF]";
/** Any character that a rule changes: when a text has none and is short, it is written as it is. */
const anyChanged = "[&<>\\r_\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\uFFFE\\uFFFF]";

/** UTF-16 code units of `v`: its characters, plus one for each outside the Basic Multilingual Plane. */
const utf16Length = (v: string) => `(length(${v}) + length(regexp_replace(${v}, '[^${astral.slice(1)}', '', 'g')))`;

/** Whether `cellText` cuts `v`. */
const isCut = (v: string) => `CASE WHEN octet_length(${v}) <= ${maxCellCharacters} THEN false ELSE ${utf16Length(v)} > ${maxCellCharacters} END`;

/**
 * The longest run of whole characters from the start of `v` that fits `cutAt` UTF-16 code units,
 * without a subquery (which costs a microsecond a row even where it never runs): a U+0001 after
 * each character outside the BMP makes the text as many characters long as it has units, `left`
 * cuts it, a character whose second unit fell off goes too, and the U+0001 after each such
 * character is taken out again (a U+0001 of the text itself never directly follows one, so it stays).
 */
const cutPrefix = (v: string) => {
  const widened = `regexp_replace(left(${v}, ${cutAt}), '(${astral})', '\\1' || chr(1), 'g')`;
  const cut = `CASE WHEN ascii(substr(${widened}, ${cutAt}, 1)) > 65535 THEN left(${widened}, ${cutAt - 1}) ELSE left(${widened}, ${cutAt}) END`;
  return `regexp_replace(${cut}, '(${astral})\\x01', '\\1', 'g')`;
};

/** `cellText(v)`: cut, then the characters XML cannot carry replaced. */
const cellTextSql = (v: string) =>
  `regexp_replace(CASE WHEN ${isCut(v)} THEN ${cutPrefix(v)} || ${literal(truncationMarker)} ELSE ${v} END, '${unwritable}', ${literal(unwritableCharacterSubstitute)}, 'g')`;

/** `worksheetText(t)`. */
const worksheetTextSql = (t: string) =>
  `replace(replace(replace(replace(regexp_replace(${t}, '_(?=x[0-9A-Fa-f]{4}_)', '_x005F_', 'g'), '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), chr(13), '&#13;')`;

/** The `xml:space` attribute of `inlineStringXml`, judged on `v` before `cellText` (see above for why that is the same). */
const spaceSql = (v: string) =>
  `CASE WHEN ascii(${v}) IN ${trimmable} OR (ascii(right(${v}, 1)) IN ${trimmable} AND NOT (${isCut(v)})) THEN ' xml:space="preserve"' ELSE '' END`;

const cellStart = (reference: string) => `'<c r="${reference}' || q.r || '" t="inlineStr"><is><t'`;

/**
 * A free-text cell. Most text holds no character a rule changes and is short: one scan says so,
 * and it is written as it is (its first and last characters are then not control characters, so
 * `<= 32` is white space). The rest takes every rule.
 */
const textCellSql = (reference: string, v: string) =>
  `CASE WHEN ${v} ~ '${anyChanged}' OR octet_length(${v}) > ${maxCellCharacters} ` +
  `THEN ${cellStart(reference)} || ${spaceSql(v)} || '>' || ${worksheetTextSql(cellTextSql(v))} || '</t></is></c>' ` +
  `WHEN ${v} <> '' THEN ${cellStart(reference)} || CASE WHEN ascii(${v}) <= 32 OR ascii(right(${v}, 1)) <= 32 THEN ' xml:space="preserve"' ELSE '' END || '>' || ${v} || '</t></is></c>' END`;

const plainCellSql = (reference: string, v: string) => `CASE WHEN ${v} <> '' THEN ${cellStart(reference)} || '>' || ${v} || '</t></is></c>' END`;

const nameCellSql = (reference: string, v: string) => `'<c r="${reference}' || q.r || '" t="inlineStr">' || ${v} || '</c>'`;

/** Whole milliseconds since 1970 (exact: `extract` gives numeric), then Excel's serial number as JavaScript computes it. */
const dateCellSql = (reference: string, v: string) =>
  `'<c r="${reference}' || q.r || '" s="${cellStyle.date}"><v>' || (floor(extract(epoch FROM ${v}) * 1000)::float8 / 86400000 + 25569)::text || '</v></c>'`;

const cellSql = { text: textCellSql, plain: plainCellSql, name: nameCellSql, date: dateCellSql };

const columns = proofExportSources.map((source, index) => ({ ...source, sql: source.kind === "name" ? `(names.j ->> ${source.sql})` : source.sql, name: `c${index}` }));

const rowXmlSql = `'<row r="' || q.r || '">' || concat(${columns.map((column) => cellSql[column.kind](column.letter, `q.${column.name}`)).join(", ")}) || '</row>'`;

/** The export's order as SQL over `p`: that of `proofs` without a sort order. */
const orderSql = proofOrder(undefined)
  .map((term) => `p.${term.column} ${term.direction}`)
  .join(", ");
const outerOrderSql = proofOrder(undefined)
  .map((term, index) => `q.o${index} ${term.direction}`)
  .join(", ");
const orderColumnsSql = proofOrder(undefined)
  .map((term, index) => `p.${term.column} AS o${index}`)
  .join(", ");

/**
 * The asset names as the query's parameter: a JSON object from code to the name's finished
 * `<is>` element, written by the same JavaScript as every cell of `proofRowXml`. An empty name
 * leaves the cell empty, as there.
 */
export function assetNamesJson(assetNames: ReadonlyMap<string, string>): string {
  return JSON.stringify(Object.fromEntries([...assetNames].filter(([, name]) => name !== "").map(([code, name]) => [code, inlineStringXml(cellText(name))])));
}

export interface ProofRowXmlOptions {
  /** Proofs per sheet: the row numbers start again at 2 after each `rowsPerSheet` proofs. */
  rowsPerSheet: number;
  assetNames: ReadonlyMap<string, string>;
}

/**
 * The query: one row `{ xml }` per proof that matches `filter`, in the export's order. The
 * values are read in an inner query (which the window function keeps from being merged into the
 * outer one), so that each cell's expression refers to a plain column, evaluated once.
 */
export function selectProofRowXml(db: Kysely<AopdDatabase>, filter: unknown, limits: FilterLimits, options: ProofRowXmlOptions): RawBuilder<{ xml: string }> {
  if (!Number.isSafeInteger(options.rowsPerSheet) || options.rowsPerSheet < 1) throw new Error(`rowsPerSheet must be a positive integer; got ${options.rowsPerSheet}.`);
  const proofs = selectProofs(db, filter, undefined, limits);
  return sql<{ xml: string }>`SELECT ${sql.raw(rowXmlSql)} AS xml FROM (SELECT ((row_number() OVER (ORDER BY ${sql.raw(orderSql)}) - 1) % ${sql.raw(String(options.rowsPerSheet))} + 2)::text AS r, ${sql.raw(orderColumnsSql)}, ${sql.raw(
    columns.map((column) => `${column.sql} AS ${column.name}`).join(", "),
  )} FROM (${proofs}) AS p CROSS JOIN (SELECT ${assetNamesJson(options.assetNames)}::jsonb AS j) AS names) AS q ORDER BY ${sql.raw(outerOrderSql)}`;
}

import { LimitExceededError } from "@compliance-graph/errors";
import type { FilterLimits } from "@compliance-graph/filter";
import { sql, type Kysely } from "kysely";
import type { Writable } from "node:stream";
import type { AopdDatabase } from "../database/database-schema.js";
import { setLocalStatementTimeout } from "../database/set-local-statement-timeout.js";
import { countProofsQuery, selectProofs } from "../proofs/proof-query.js";
import { toProof } from "../proofs/proof.js";
import { validateProofFilter } from "../proofs/validate-proof-filter.js";
import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { CopyRowXmlTranscoder } from "./copy-row-xml-transcoder.js";
import { ExportBrokeOff } from "./export-broke-off.js";
import { fetchInChunks } from "./fetch-in-chunks.js";
import { proofRowsCopySql } from "./proof-rows-copy-sql.js";
import { XlsxProofWriter } from "./xlsx-proof-writer.js";

export interface ProofExportOptions {
  /** `AopdProofFilterInput` as the resolver receives it; all proofs when absent. */
  filter?: unknown;
  limits: FilterLimits;
  /** The most proofs one export may hold (`AOPD_MAX_EXPORT_ROWS`); a larger match is refused before any work. */
  maxRows: number;
  /** The display name of each asset code (the DTI registry's); unknown codes leave the cell empty. */
  assetNames: ReadonlyMap<string, string>;
  /** Thrown instead of writing a workbook when nothing matches (the deprecated `proofAsXlsx` answers NOT_FOUND). */
  emptyError?: Error;
  /** Rows fetched through the cursor at a time (two batches are in memory at once: one written, one fetched). @default 2_000 */
  chunkSize?: number;
  /** Proofs per sheet. @default 1_048_575 (Excel's last row, less the header) */
  rowsPerSheet?: number;
  /** On a PostgreSQL server: the pool whose connection reads the rows through COPY (see `streamThroughCopy`); a cursor otherwise. */
  pool?: pg.Pool;
  /**
   * The `statement_timeout` of the export's transaction on the pool (`AOPD_DB_LONG_STATEMENT_TIMEOUT_MS`):
   * its count and its COPY run far longer than a query may. In milliseconds. @default the connection's own
   */
  statementTimeoutMs?: number;
}

/**
 * Streams the proofs that match the filter as an XLSX file into the output that `open` returns, in
 * the order of `proofs` without a sort order (creation time, then id). The count, the cap check
 * and the rows share one read-only REPEATABLE READ transaction, so the rows are exactly the
 * counted ones even while proofs arrive.
 *
 * `open` is called once the filter is valid and the count within the cap, and before the first
 * byte: a caller answering over HTTP can still answer an error until then, and sends its headers
 * in `open`. When anything fails after that (reading rows, the output closing), the output is left
 * incomplete (never ended), so the caller can tell the client that the file broke off, and the
 * failure is thrown as `ExportBrokeOff` with the rows written so far.
 *
 * @returns the number of proofs written.
 */
export async function streamProofsAsXlsx(db: Kysely<AopdDatabase>, options: ProofExportOptions, open: (matching: number) => Writable): Promise<number> {
  // Checked before the transaction, so that a bad filter is a user error without touching the database.
  validateProofFilter(options.filter, options.limits);
  return options.pool ? streamThroughCopy(options.pool, db, options, open) : streamThroughCursor(db, options, open);
}

/**
 * The rows as proofs read through a cursor and written by `XlsxProofWriter.add`: PGlite, which
 * cannot stream a COPY, or a server without `pool`.
 */
async function streamThroughCursor(db: Kysely<AopdDatabase>, options: ProofExportOptions, open: (matching: number) => Writable): Promise<number> {
  let opened: XlsxProofWriter | undefined;
  try {
    return await streamThroughCursorInto(db, options, open, (writer) => (opened = writer));
  } catch (error) {
    throw opened ? new ExportBrokeOff(opened.rows, error) : error;
  }
}

/** `streamThroughCursor`'s work; `opened` learns the writer once the output is open. */
async function streamThroughCursorInto(
  db: Kysely<AopdDatabase>,
  options: ProofExportOptions,
  open: (matching: number) => Writable,
  opened: (writer: XlsxProofWriter) => void,
): Promise<number> {
  const writer = await db.transaction().execute(async (trx) => {
    // The first statement of the transaction, so it applies on both drivers (PGlite's Kysely
    // driver ignores Kysely's own transaction settings).
    await sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`.execute(trx);
    const { count } = await countProofsQuery(trx, options.filter, options.limits).executeTakeFirstOrThrow();
    const matching = checkedMatching(Number(count), options);
    const writer = new XlsxProofWriter({ output: open(matching), rowsPerSheet: options.rowsPerSheet, assetName: (code) => options.assetNames.get(code) });
    opened(writer);
    const query = selectProofs(trx, options.filter, undefined, options.limits);
    try {
      await fetchInChunks(trx, query, options.chunkSize ?? 2_000, (rows) => writer.add(rows.map(toProof)));
    } catch (error) {
      writer.abort();
      throw error;
    }
    return writer;
  });
  // Finished after the transaction: the last parts need no database connection.
  await writer.finish();
  return writer.rows;
}

/**
 * The rows as the raw values of `COPY ... TO STDOUT`, written into XML by `CopyRowXmlTranscoder`,
 * on one connection of the pool. PostgreSQL sends each row for about 5 µs of its CPU, and this
 * process copies most of the bytes straight into the XML, without a string or an object per value
 * (about 18 µs of CPU per row, against 26 for `pg`'s rows through `add`). The socket's flow
 * control is the backpressure: while the zip waits for the output, nothing is read, and the
 * server waits too.
 */
async function streamThroughCopy(pool: pg.Pool, db: Kysely<AopdDatabase>, options: ProofExportOptions, open: (matching: number) => Writable): Promise<number> {
  const client = await pool.connect();
  let failure: Error | undefined;
  let writer: XlsxProofWriter | undefined;
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    await setLocalStatementTimeout(client, options.statementTimeoutMs);
    const counted = countProofsQuery(db, options.filter, options.limits).compile();
    const { rows } = await client.query<{ count: string }>(counted.sql, [...counted.parameters]);
    const matching = checkedMatching(Number(rows[0]?.count), options);
    writer = new XlsxProofWriter({ output: open(matching), rowsPerSheet: options.rowsPerSheet });
    const transcoder = new CopyRowXmlTranscoder({ sink: writer, rowsPerSheet: writer.rowsPerSheet, assetNames: options.assetNames });
    try {
      for await (const chunk of client.query(copyTo(proofRowsCopySql(db, options.filter, options.limits)))) await transcoder.write(chunk as Buffer);
      await transcoder.end();
    } catch (error) {
      writer.abort();
      throw error;
    }
    await client.query("COMMIT");
  } catch (error) {
    failure = error as Error;
    throw writer ? new ExportBrokeOff(writer.rows, error) : error;
  } finally {
    // A connection left in the middle of a COPY or a transaction is closed rather than reused.
    client.release(failure);
  }
  try {
    await writer.finish();
  } catch (error) {
    throw new ExportBrokeOff(writer.rows, error);
  }
  return writer.rows;
}

/** The number of matching proofs, once it is known to be within the cap (and not 0 where `emptyError` says so). */
function checkedMatching(matching: number, options: ProofExportOptions): number {
  if (matching > options.maxRows) {
    throw new LimitExceededError(
      "maxExportRows",
      options.maxRows,
      `The filter matches ${matching} proofs; one export may hold at most ${options.maxRows}. Narrow the filter, for example by createdAt, and export in parts.`,
    );
  }
  if (matching === 0 && options.emptyError) throw options.emptyError;
  return matching;
}

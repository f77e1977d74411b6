import { LimitExceededError } from "@compliance-graph/errors";
import type { FilterLimits } from "@compliance-graph/filter";
import { sql, type Kysely } from "kysely";
import type { Writable } from "node:stream";
import type { AopdDatabase } from "../database/database-schema.js";
import { countProofsQuery, selectProofs } from "../proofs/proof-query.js";
import { fetchInChunks } from "./fetch-in-chunks.js";
import { selectProofRowXml } from "./proof-row-xml-query.js";
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
  /** Rows fetched from the database at a time (two batches are in memory at once: one written, one fetched). @default 2_000 */
  chunkSize?: number;
  /** Proofs per sheet. @default 1_048_575 (Excel's last row, less the header) */
  rowsPerSheet?: number;
}

/**
 * Streams the proofs that match the filter as an XLSX file into the output that `open` returns, in
 * the order of `proofs` without a sort order (creation time, then id). The count, the cap check
 * and the rows share one read-only REPEATABLE READ transaction, so the rows are exactly the
 * counted ones even while proofs arrive.
 *
 * `open` is called once the filter is valid and the count within the cap, and before the first
 * byte: a caller answering over HTTP can still answer an error until then, and sends its headers
 * in `open`. When reading rows fails after that, the output is left incomplete (never ended), so
 * the caller can tell the client that the file broke off.
 *
 * @returns the number of proofs written.
 */
export async function streamProofsAsXlsx(db: Kysely<AopdDatabase>, options: ProofExportOptions, open: (matching: number) => Writable): Promise<number> {
  // Built before the transaction so that a bad filter is a user error without touching the database.
  selectProofs(db, options.filter, undefined, options.limits);
  const writer = await db.transaction().execute(async (trx) => {
    // The first statement of the transaction, so it applies on both drivers (PGlite's Kysely
    // driver ignores Kysely's own transaction settings).
    await sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`.execute(trx);
    const { count } = await countProofsQuery(trx, options.filter, options.limits).executeTakeFirstOrThrow();
    const matching = Number(count);
    if (matching > options.maxRows) {
      throw new LimitExceededError(
        "maxExportRows",
        options.maxRows,
        `The filter matches ${matching} proofs; one export may hold at most ${options.maxRows}. Narrow the filter, for example by createdAt, and export in parts.`,
      );
    }
    if (matching === 0 && options.emptyError) throw options.emptyError;
    // The rows print their dates as float8 text: this makes it the shortest text that reads back
    // the same number, as JavaScript prints it, whatever the server's or role's setting.
    await sql`SET LOCAL extra_float_digits = 1`.execute(trx);
    const writer = new XlsxProofWriter({ output: open(matching), rowsPerSheet: options.rowsPerSheet });
    const query = selectProofRowXml(trx, options.filter, options.limits, { rowsPerSheet: writer.rowsPerSheet, assetNames: options.assetNames });
    try {
      await fetchInChunks(trx, { compile: () => query.compile(trx) }, options.chunkSize ?? 2_000, (rows) => writer.addRowXml(rows));
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

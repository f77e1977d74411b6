import { constants as bufferConstants } from "node:buffer";
import { LimitExceededError } from "@compliance-graph/errors";
import type { FilterLimits } from "@compliance-graph/filter";
import { sql, type Kysely } from "kysely";
import type { AopdDatabase, ProofRow } from "../database/database-schema.js";
import { countProofsQuery, selectProofs } from "../proofs/proof-query.js";
import { toProof } from "../proofs/proof.js";
import { fetchInChunks } from "./fetch-in-chunks.js";
import { XlsxProofWriter } from "./xlsx-proof-writer.js";

export interface ProofExportOptions {
  /** `AopdProofFilterInput` as the resolver receives it; all proofs when absent. */
  filter?: unknown;
  limits: FilterLimits;
  /** The most proofs one export may hold (`AOPD_MAX_EXPORT_ROWS`); a larger match is refused before any work. */
  maxRows: number;
  assetName: (code: string) => string | undefined;
  /** Thrown instead of writing a workbook when nothing matches (the deprecated `proofAsXlsx` answers NOT_FOUND). */
  emptyError?: Error;
  /** Rows fetched from the database at a time. @default 1_000 */
  chunkSize?: number;
  /** Proofs per sheet. @default 1_048_575 (Excel's last row, less the header) */
  rowsPerSheet?: number;
}

export interface ProofExport {
  file: Buffer;
  rows: number;
}

/**
 * The base64 text of a file travels as one JavaScript string inside the JSON response, and V8 caps
 * string length (about 512 MiB on 64-bit Node). A larger file would fail while the response is
 * written, with an error the client cannot act on, so it is refused here with one it can. A MiB is
 * left for the rest of the response.
 */
const maxBase64Length = bufferConstants.MAX_STRING_LENGTH - 2 ** 20;

/**
 * Exports the proofs that match the filter as an XLSX file, in the order of `proofs` without a
 * sort order (creation time, then id). The count, the cap check and the rows share one read-only
 * REPEATABLE READ transaction, so the rows are exactly the counted ones even while proofs arrive.
 * Rows stream through a cursor into the streaming writer; only the compressed file grows.
 */
export async function exportProofsAsXlsx(db: Kysely<AopdDatabase>, options: ProofExportOptions): Promise<ProofExport> {
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
    const writer = new XlsxProofWriter({ assetName: options.assetName, rowsPerSheet: options.rowsPerSheet });
    const query = selectProofs(trx, options.filter, undefined, options.limits);
    await fetchInChunks<ProofRow>(trx, query, options.chunkSize ?? 1_000, (rows) => writer.add(rows.map(toProof)));
    return writer;
  });
  // Finished after the transaction: the last compression needs no database connection.
  const file = await writer.finish();
  if (Math.ceil(file.length / 3) * 4 > maxBase64Length) {
    throw new LimitExceededError(
      "maxExportBytes",
      Math.floor((maxBase64Length / 4) * 3),
      `The export of ${writer.rows} proofs is ${file.length} bytes, more than one response can carry. Narrow the filter and export in parts.`,
    );
  }
  return { file, rows: writer.rows };
}

import { Writable } from "node:stream";
import { LimitExceededError } from "@compliance-graph/errors";
import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { XlsxWorkbookWriter } from "../xlsx/xlsx-workbook-writer.js";
import { filteredAuditEntries, type AuditTrailFilter } from "./audit-trail-query.js";
import { auditTrailWorksheet } from "./audit-trail-worksheet.js";

/** Entries read per query while the workbook is written. @default 1_000 */
const readBatch = 1_000;

/**
 * `auditTrailAsXlsx`: the entries the filter selects, oldest first, as an XLSX workbook in memory
 * (the proof export's writer and cell writers, so the same formula safety). The entries are those
 * up to the chain's head when the export starts: entries appended meanwhile are not half in it.
 * More than `maxRows` entries are refused (LIMIT_EXCEEDED) before anything is written, counted
 * with a bounded query.
 */
export async function exportAuditTrailAsXlsx(
  db: Kysely<AopdDatabase>,
  filter: AuditTrailFilter | null | undefined,
  maxRows: number,
): Promise<{ file: Buffer; rows: number }> {
  const head = String((await db.selectFrom("aopd_audit_head").select("seq").executeTakeFirstOrThrow()).seq);
  const matching = await db
    .selectFrom(
      filteredAuditEntries(db, filter)
        .select("seq")
        .where("seq", "<=", head)
        .limit(maxRows + 1)
        .as("matching"),
    )
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .executeTakeFirstOrThrow();
  if (Number(matching.count) > maxRows) {
    throw new LimitExceededError(
      "maxExportRows",
      maxRows,
      `More than ${maxRows} entries match; narrow the filter (by time, actor or action) and export in parts.`,
    );
  }
  const chunks: Buffer[] = [];
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  const writer = new XlsxWorkbookWriter({ output }, auditTrailWorksheet);
  let after = "0";
  let rows = 0;
  try {
    for (;;) {
      const batch = await filteredAuditEntries(db, filter)
        .selectAll()
        .where("seq", ">", after)
        .where("seq", "<=", head)
        .orderBy("seq")
        .limit(readBatch)
        .execute();
      if (batch.length === 0) break;
      await writer.add(batch);
      rows += batch.length;
      after = String(batch.at(-1)!.seq);
    }
    await writer.finish();
  } catch (error) {
    writer.abort();
    throw error;
  }
  return { file: Buffer.concat(chunks), rows };
}

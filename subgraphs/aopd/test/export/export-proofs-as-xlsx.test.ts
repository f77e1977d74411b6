import { defaultFilterLimits } from "@compliance-graph/filter";
import { NotFoundError } from "@compliance-graph/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/database/open-database.js";
import { exportProofsAsXlsx } from "../../src/export/export-proofs-as-xlsx.js";
import { findProofPage } from "../../src/proofs/proof-query.js";
import { toProof } from "../../src/proofs/proof.js";
import { seedProofs } from "../../src/seed/seed-proofs.js";
import { databaseDrivers, openTestDatabase } from "../support/test-database.js";
import { expectExportMatches, type ProofJson } from "./expect-export-matches.js";
import { loggedKysely } from "./logged-kysely.js";
import { readWorkbook } from "@compliance-graph/test-kit";

const assetNames = new Map([["DTI4H95J0R2X", "Bitcoin"]]);
const options = { limits: defaultFilterLimits, maxRows: 1_000, assetNames };

/** Each driver through its cursor, and the PostgreSQL server through COPY on the pool as well. */
const variants = [...databaseDrivers.map((driver) => ({ driver, copy: false })), { driver: "postgres" as const, copy: true }];

describe.each(variants)("exportProofsAsXlsx on $driver (COPY: $copy)", ({ driver, copy }) => {
  let database: Database;
  const through = () => (copy ? { pool: database.pool! } : {});
  let all: ProofJson[];

  beforeAll(async () => {
    database = await openTestDatabase(driver, "xlsxexport");
    await seedProofs(database, { count: 23, seed: 3 });
    const rows = await findProofPage(database.db, { offset: 0, limit: 100 }, { ...defaultFilterLimits, maxResultRows: undefined });
    // The shape `proofs` has on the wire: instants as ISO text.
    all = rows.map((row) => JSON.parse(JSON.stringify(toProof(row))) as ProofJson);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("continues on a further sheet, each with the header, when a sheet is full, across fetched chunks", async () => {
    const { file, rows } = await exportProofsAsXlsx(database.db, { ...options, ...through(), rowsPerSheet: 7, chunkSize: 5 });
    expect(rows).toBe(23);
    const sheets = readWorkbook(file);
    expect(sheets.map((sheet) => [sheet.name, sheet.rows.length])).toEqual([
      ["Proofs", 8],
      ["Proofs 2", 8],
      ["Proofs 3", 8],
      ["Proofs 4", 3],
    ]);
    expectExportMatches(sheets, all, assetNames, 7);
  });

  it("checks the row cap with a count before any export work", async () => {
    const { db, statements } = loggedKysely(database);
    const error = await exportProofsAsXlsx(db, { ...options, ...through(), maxRows: 22 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "LIMIT_EXCEEDED", extensions: { limit: "maxExportRows", allowed: 22 } });
    // Through COPY, the count runs on the pool's connection, past Kysely's log.
    if (copy) return;
    const sent = statements.map((statement) => statement.sql).filter((sql) => !/^(begin|commit|rollback)$/i.test(sql));
    expect(sent).toEqual(["SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", 'select count(*) as "count" from "aopd_proof" where 1 = 1']);
  });

  it("exports exactly as many proofs as the cap allows", async () => {
    const { rows } = await exportProofsAsXlsx(database.db, { ...options, ...through(), maxRows: 23 });
    expect(rows).toBe(23);
  });

  it("throws the given error instead of writing a workbook when nothing matches", async () => {
    const { db, statements } = loggedKysely(database);
    const filter = { is: { any: { id: { ilike: "nothing" } } } };
    await expect(exportProofsAsXlsx(db, { ...options, ...through(), filter, emptyError: new NotFoundError("The proof", "nothing") })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(statements.some((statement) => statement.sql.startsWith("DECLARE"))).toBe(false);
  });

  it("writes the workbook of a filter with values to quote as the cursor does", async () => {
    if (!copy) return;
    // A value holding a quote and a backslash, which COPY gets written into its SQL as a literal.
    await database.db.updateTable("aopd_proof").set({ comment: "it's a \\ here" }).where("id", "=", all[0]!.id).execute();
    const filter = { is: { any: { comment: { ilike: "%it's a \\\\ h%" }, createdAt: { gte: new Date("2020-01-01T00:00:00Z") } } } };
    const throughCursor = await exportProofsAsXlsx(database.db, { ...options, filter });
    const throughCopy = await exportProofsAsXlsx(database.db, { ...options, ...through(), filter });
    expect(throughCopy.rows).toBe(1);
    expect(throughCopy.rows).toBe(throughCursor.rows);
    expect(readWorkbook(throughCopy.file)).toEqual(readWorkbook(throughCursor.file));
  });
});

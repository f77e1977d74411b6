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
import { readWorkbook } from "./read-workbook.js";

const assetNames = new Map([["DTI4H95J0R2X", "Bitcoin"]]);
const options = { limits: defaultFilterLimits, maxRows: 1_000, assetNames };

describe.each(databaseDrivers)("exportProofsAsXlsx on %s", (driver) => {
  let database: Database;
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
    const { file, rows } = await exportProofsAsXlsx(database.db, { ...options, rowsPerSheet: 7, chunkSize: 5 });
    expect(rows).toBe(23);
    const sheets = readWorkbook(file);
    expect(sheets.map((sheet) => [sheet.name, sheet.rows.length])).toEqual([["Proofs", 8], ["Proofs 2", 8], ["Proofs 3", 8], ["Proofs 4", 3]]);
    expectExportMatches(sheets, all, assetNames, 7);
  });

  it("checks the row cap with a count before any export work", async () => {
    const { db, statements } = loggedKysely(database);
    const error = await exportProofsAsXlsx(db, { ...options, maxRows: 22 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "LIMIT_EXCEEDED", extensions: { limit: "maxExportRows", allowed: 22 } });
    const sent = statements.map((statement) => statement.sql).filter((sql) => !/^(begin|commit|rollback)$/i.test(sql));
    expect(sent).toEqual(["SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", 'select count(*) as "count" from "aopd_proof" where 1 = 1']);
  });

  it("exports exactly as many proofs as the cap allows", async () => {
    const { rows } = await exportProofsAsXlsx(database.db, { ...options, maxRows: 23 });
    expect(rows).toBe(23);
  });

  it("throws the given error instead of writing a workbook when nothing matches", async () => {
    const { db, statements } = loggedKysely(database);
    const filter = { is: { any: { id: { ilike: "nothing" } } } };
    await expect(exportProofsAsXlsx(db, { ...options, filter, emptyError: new NotFoundError("The proof", "nothing") })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(statements.some((statement) => statement.sql.startsWith("DECLARE"))).toBe(false);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchInChunks } from "../../src/export/fetch-in-chunks.js";
import type { Database } from "../../src/database/open-database.js";
import { seedProofs } from "../../src/seed/seed-proofs.js";
import { databaseDrivers, openTestDatabase } from "../support/test-database.js";
import { loggedKysely } from "./logged-kysely.js";

describe.each(databaseDrivers)("fetchInChunks on %s", (driver) => {
  let database: Database;

  beforeAll(async () => {
    database = await openTestDatabase(driver, "fetchchunks");
    await seedProofs(database, { count: 25, seed: 7 });
  });
  afterAll(async () => {
    await database?.close();
  });

  it.each([
    [10, [10, 10, 5], 3],
    [5, [5, 5, 5, 5, 5], 6],
    [100, [25], 1],
  ])("reads every row in order through a cursor, %i at a time", async (chunkSize, sizes, fetches) => {
    const { db, statements } = loggedKysely(database);
    const expected = await db.selectFrom("aopd_proof").select(["id"]).where("customer_id", "<>", "nobody").orderBy("created_at").orderBy("id").execute();
    statements.length = 0;
    const chunks: { id: string }[][] = [];
    const total = await db.transaction().execute((trx) =>
      fetchInChunks(
        trx,
        trx.selectFrom("aopd_proof").select(["id"]).where("customer_id", "<>", "nobody").orderBy("created_at").orderBy("id"),
        chunkSize,
        (rows) => {
          chunks.push(rows);
        },
      ),
    );
    const lengths = chunks.map((chunk) => chunk.length);
    expect(expected).toHaveLength(25);
    expect(total).toBe(25);
    expect(chunks.flat()).toEqual(expected);
    expect(lengths).toEqual(sizes);
    const cursorStatements = statements.filter((statement) => !/^(begin|commit)/i.test(statement.sql));
    expect(cursorStatements[0]).toEqual({
      sql: 'DECLARE aopd_chunked_cursor NO SCROLL CURSOR FOR select "id" from "aopd_proof" where "customer_id" <> $1 order by "created_at", "id"',
      parameters: ["nobody"],
    });
    const fetchCount = cursorStatements.filter((statement) => statement.sql === `FETCH FORWARD ${chunkSize} FROM aopd_chunked_cursor`).length;
    expect(fetchCount).toBe(fetches);
    expect(cursorStatements.at(-1)?.sql).toBe("CLOSE aopd_chunked_cursor");
  });

  it("refuses to run outside a transaction, where a cursor cannot live", async () => {
    await expect(fetchInChunks(database.db, database.db.selectFrom("aopd_proof").select("id"), 10, () => {})).rejects.toThrow(/needs a transaction/);
  });
});

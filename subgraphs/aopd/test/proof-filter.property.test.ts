import fc from "fast-check";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AopdDatabase } from "../src/database/database-schema.js";
import type { Database } from "../src/database/open-database.js";
import { defaultProofQueryLimits, findProofPage, countProofs } from "../src/proofs/proof-query.js";
import { encodeProofCursor } from "../src/proofs/proof-cursor.js";
import { proofOrder, sortColumns, type ProofSortInput } from "../src/proofs/proof-sort.js";
import { toProof } from "../src/proofs/proof.js";
import { proofFilter, proofRows, sortOrder } from "./support/proof-arbitraries.js";
import { referenceMatches, type ReferenceRow } from "./support/reference-proof-filter.js";
import { databaseDrivers, openTestDatabase } from "./support/test-database.js";

const rollback = new Error("roll back");

/**
 * Runs one property case on exactly `rows`, inside a transaction that is rolled back: every case
 * starts from an empty table, and no case pays for a commit.
 */
async function withRows(database: Database, rows: ReferenceRow[], check: (db: Kysely<AopdDatabase>) => Promise<void>): Promise<void> {
  await database.db
    .transaction()
    .execute(async (trx) => {
      if (rows.length > 0) {
        await trx
          .insertInto("aopd_proof")
          .values(rows.map((row) => ({ ...row, amount: row.kind === "satoshi" ? "1000" : null })))
          .execute();
      }
      await check(trx);
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
}

/** The order the API promises, stated over plain rows: criteria in order, byte order for text, then id in the last criterion's direction. */
function referenceOrder(rows: ReferenceRow[], order: ProofSortInput[]): ReferenceRow[] {
  const terms: { column: keyof ReferenceRow; desc: boolean }[] = [];
  for (const criterion of order.length > 0 ? order : [{ field: "CREATED_AT" as const }]) {
    const column = sortColumns[criterion.field] as keyof ReferenceRow;
    if (!terms.some((term) => term.column === column)) terms.push({ column, desc: criterion.direction === "DESC" });
  }
  if (!terms.some((term) => term.column === "id")) terms.push({ column: "id", desc: terms.at(-1)?.desc ?? false });
  const key = (value: unknown) => (value instanceof Date ? value.getTime() : value);
  return [...rows].sort((a, b) => {
    for (const { column, desc } of terms) {
      const x = key(a[column]);
      const y = key(b[column]);
      if (x === y) continue;
      // PostgreSQL puts missing values last ascending and first descending.
      if (x === null || x === undefined) return desc ? -1 : 1;
      if (y === null || y === undefined) return desc ? 1 : -1;
      const less = typeof x === "string" && typeof y === "string" ? Buffer.compare(Buffer.from(x), Buffer.from(y)) < 0 : (x as number) < (y as number);
      return (less ? -1 : 1) * (desc ? -1 : 1);
    }
    return 0;
  });
}

describe.each(databaseDrivers)("proof filters and sorting on %s", (driver) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(driver, "filterprop");
  });
  afterAll(async () => {
    await database?.close();
  });

  it("returns exactly the rows the reference predicate accepts, and counts them", async () => {
    await fc.assert(
      fc.asyncProperty(
        proofRows.chain((rows) => fc.tuple(fc.constant(rows), proofFilter(rows.map((row) => row.id)))).map(([rows, filter]) => ({ rows, filter })),
        ({ rows, filter }) =>
          withRows(database, rows, async (db) => {
            const found = await findProofPage(db, { offset: 0, limit: 1000, filter }, defaultProofQueryLimits);
            const expected = rows
              .filter((row) => referenceMatches(row, filter))
              .map((row) => row.id)
              .sort();
            expect(found.map((row) => row.id).sort()).toEqual(expected);
            expect(await countProofs(db, filter, defaultProofQueryLimits)).toBe(expected.length);
          }),
      ),
      { numRuns: 60 },
    );
  }, 180_000);

  it("orders by any criteria with the id as tie-breaker, and pages never overlap", async () => {
    await fc.assert(
      fc.asyncProperty(proofRows, sortOrder, fc.integer({ min: 1, max: 7 }), (rows, order, pageSize) =>
        withRows(database, rows, async (db) => {
          const all = await findProofPage(db, { offset: 0, limit: 1000, sortOrder: order }, defaultProofQueryLimits);
          expect(all.map((row) => row.id)).toEqual(referenceOrder(rows, order).map((row) => row.id));
          const paged: string[] = [];
          for (let offset = 0; offset < rows.length; offset += pageSize) {
            const page = await findProofPage(db, { offset, limit: pageSize, sortOrder: order }, defaultProofQueryLimits);
            paged.push(...page.map((row) => row.id));
          }
          expect(paged).toEqual(all.map((row) => row.id));
        }),
      ),
      { numRuns: 60 },
    );
  }, 180_000);

  it("pages by cursor through exactly the order that offsets page through, nulls included", async () => {
    // Half the orders lead with the nullable comment, so that page boundaries fall among nulls.
    const leadingComment = fc.record({ field: fc.constant("COMMENT" as const), direction: fc.constantFrom("ASC" as const, "DESC" as const) });
    const cursorSortOrder = fc.oneof(
      sortOrder,
      fc.tuple(leadingComment, sortOrder).map(([first, rest]) => [first, ...rest]),
    );
    await fc.assert(
      fc.asyncProperty(proofRows, cursorSortOrder, fc.integer({ min: 1, max: 7 }), (rows, order, pageSize) =>
        withRows(database, rows, async (db) => {
          const expected = referenceOrder(rows, order).map((row) => row.id);
          const paged: string[] = [];
          let after: string | undefined;
          for (let pages = 0; pages <= rows.length; pages += 1) {
            const page = await findProofPage(db, { offset: 0, limit: pageSize, sortOrder: order, after }, defaultProofQueryLimits);
            paged.push(...page.map((row) => row.id));
            const last = page.at(-1);
            if (!last || page.length < pageSize) break;
            after = encodeProofCursor(toProof(last), proofOrder(order));
          }
          expect(paged).toEqual(expected);
        }),
      ),
      { numRuns: 60 },
    );
  }, 180_000);
});

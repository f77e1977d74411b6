import { defaultFilterLimits } from "@compliance-graph/filter";
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from "kysely";
import { describe, expect, it } from "vitest";
import type { AopdDatabase } from "../../src/database/database-schema.js";
import { encodeProofCursor } from "../../src/proofs/proof-cursor.js";
import { selectProofs } from "../../src/proofs/proof-query.js";
import { proofOrder, type ProofSortInput } from "../../src/proofs/proof-sort.js";

const db = new Kysely<AopdDatabase>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (kysely) => new PostgresIntrospector(kysely),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const proof = {
  id: "0b0c2f4e-3d1a-4c55-9e0a-2f6a1d5c7b11",
  createdAt: new Date("2026-02-03T04:05:06.789Z"),
  address: "bc1qexample",
  customerId: "CUST-000042",
  asset: "DTI4H95J0R2X",
  comment: null,
  status: "VERIFIED",
};

function compiledAfter(sortOrder: ProofSortInput[] | undefined) {
  return selectProofs(db, undefined, sortOrder, defaultFilterLimits, encodeProofCursor(proof, proofOrder(sortOrder)))
    .limit(50)
    .compile();
}

describe("the page after a cursor, as SQL", () => {
  it("is one row comparison when every term runs one way over columns without nulls", () => {
    const { sql, parameters } = compiledAfter([{ field: "CREATED_AT", direction: "DESC" }]);
    expect(sql).toBe('select * from "aopd_proof" where 1 = 1 and ("created_at", "id") < ($1, $2) order by "created_at" desc, "id" desc limit $3');
    expect(parameters).toEqual([proof.createdAt, proof.id, 50]);
  });

  it("expands into prefixes when a term can be null, placing nulls as ORDER BY does", () => {
    const { sql, parameters } = compiledAfter([
      { field: "COMMENT", direction: "DESC" },
      { field: "STATUS", direction: "ASC" },
    ]);
    expect(sql).toBe(
      'select * from "aopd_proof" where 1 = 1 and ("comment" is not null or ("comment" is null and "status" > $1) or ("comment" is null and "status" = $2 and "id" > $3)) order by "comment" desc, "status" asc, "id" asc limit $4',
    );
    expect(parameters).toEqual(["VERIFIED", "VERIFIED", proof.id, 50]);
  });

  it("carries the values only as parameters, whatever text they hold", () => {
    const hostile = { ...proof, address: `x') OR 1=1 --`, comment: `"; DROP TABLE aopd_proof; --` };
    const sortOrder: ProofSortInput[] = [
      { field: "ADDRESS", direction: "ASC" },
      { field: "COMMENT", direction: "ASC" },
    ];
    const { sql, parameters } = selectProofs(db, undefined, sortOrder, defaultFilterLimits, encodeProofCursor(hostile, proofOrder(sortOrder))).compile();
    expect(sql).not.toContain("DROP");
    expect(sql).not.toContain("1=1");
    expect(parameters).toContain(hostile.address);
    expect(parameters).toContain(hostile.comment);
  });
});

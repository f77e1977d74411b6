import { defaultFilterLimits } from "@compliance-graph/filter";
import { CompiledQuery } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsedFilter, proofQueryCases } from "@compliance-graph/test-kit";
import type { Database } from "../../src/database/open-database.js";
import { encodeProofCursor } from "../../src/proofs/proof-cursor.js";
import { findProofPage, selectProofs } from "../../src/proofs/proof-query.js";
import { proofOrder, type ProofSortInput } from "../../src/proofs/proof-sort.js";
import { toProof } from "../../src/proofs/proof.js";
import { seedProofs } from "../../src/seed/seed-proofs.js";
import { openTestDatabase } from "../support/test-database.js";

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/**
 * The plans PostgreSQL chooses for every query the benchmark measures, on a seeded and analyzed
 * table: no query reads the whole table, and the pages that an index can deliver in order come
 * without a sort. A plan regression (a dropped index, a tie-breaker that no longer matches the
 * index's order) fails here, where a benchmark would only get slower.
 */
describe("query plans of the benchmark's proof queries on PostgreSQL", () => {
  let database: Database;

  beforeAll(async () => {
    database = await openTestDatabase("postgres", "plans");
    await seedProofs(database, { count: 30_000, seed: 1 });
  });
  afterAll(async () => {
    await database?.close();
  });

  it.each(proofQueryCases)("$name", async (queryCase) => {
    const filter = parsedFilter(queryCase.filter);
    const sortOrder = queryCase.sortOrder as ProofSortInput[] | undefined;
    let after: string | undefined;
    if (queryCase.cursorAt !== undefined) {
      // The table is smaller than the benchmark's, so the cursor's position is scaled into it.
      const [row] = await findProofPage(
        database.db,
        { offset: Math.min(queryCase.cursorAt, 20_000) - 1, limit: 1, filter, sortOrder },
        { ...defaultFilterLimits, maxResultRows: undefined },
      );
      after = encodeProofCursor(toProof(row!), proofOrder(sortOrder));
    }
    const select = selectProofs(database.db, filter, sortOrder, defaultFilterLimits, after).limit(queryCase.limit);
    const compiled = (queryCase.offset > 0 ? select.offset(queryCase.offset) : select).compile();
    const { rows } = await database.db.executeQuery<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
      CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${compiled.sql}`, [...compiled.parameters]),
    );
    const nodes = nodesOf(rows[0]!["QUERY PLAN"][0].Plan);
    const types = nodes.map((node) => node["Node Type"]);
    expect(types, JSON.stringify(types)).not.toContain("Seq Scan");
    if (queryCase.ordering === "index")
      expect(
        types.filter((type) => type.endsWith("Sort")),
        JSON.stringify(types),
      ).toEqual([]);
    if (queryCase.ordering === "incremental") expect(types, JSON.stringify(types)).not.toContain("Sort");
  });
});

import pg from "pg";
import { Kysely, PostgresDialect } from "kysely";
import { countProofsQuery, selectProofs, type AopdDatabase } from "@compliance-graph/aopd";
import { defaultFilterLimits } from "@compliance-graph/filter";
import { createInternalTokenMinter, generateInternalSigningKey } from "@compliance-graph/identity";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { ensureSeededDatabase } from "../support/bench-database.js";
import { measureLatency, ms, percentile } from "../support/latency.js";
import { parsedFilter, proofQueryCases } from "../support/proof-query-cases.js";
import { freePort, startProcess } from "../support/start-process.js";

const pageQuery = `query($offset: Int!, $limit: Int!, $filter: AopdProofFilterInput, $sortOrder: [AopdProofSortInput!], $after: String) {
  aopd { proofs(offset: $offset, limit: $limit, filter: $filter, sortOrder: $sortOrder, after: $after) { __typename id createdAt address customerId asset comment status } } }`;
const countQuery = `query($filter: AopdProofFilterInput) { aopd { proofsCount(filter: $filter) } }`;
const cursorQuery = `query($offset: Int!, $filter: AopdProofFilterInput, $sortOrder: [AopdProofSortInput!]) {
  aopd { proofs(offset: $offset, limit: 1, filter: $filter, sortOrder: $sortOrder) { cursor } } }`;

export const proofQueriesScenario: BenchmarkScenario = {
  name: "proof-queries",
  async run({ quick }) {
    const count = quick ? 20_000 : 1_000_000;
    const iterations = quick ? 10 : 40;
    const { url, seededSeconds } = await ensureSeededDatabase(quick ? "aopd_bench_quick" : "aopd_bench", count);
    const port = await freePort();
    // As in production: the subgraph verifies the gateway's internal token on every request.
    const key = await generateInternalSigningKey("bench");
    const token = await (await createInternalTokenMinter({ privateJwk: key.privateJwk, ttlSeconds: 3_600 }))(
      { subject: "bench", client: "bench", roles: ["proofs:read"] },
      "aopd",
    );
    const subgraph = await startProcess(
      "subgraphs/aopd/src/main.ts",
      { AOPD_PORT: String(port), DATABASE_URL: url, INTERNAL_JWT_PUBLIC_JWKS: JSON.stringify({ keys: [key.publicJwk] }), AOPD_EXPIRY_INTERVAL_SECONDS: "0" },
      `http://127.0.0.1:${port}/health/ready`,
    );
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const db = new Kysely<AopdDatabase>({ dialect: new PostgresDialect({ pool }) });
    const post = async (query: string, variables: unknown) => {
      const response = await fetch(`http://127.0.0.1:${port}/graphql`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify({ query, variables }) });
      const body = (await response.json()) as { data?: { aopd: { proofs?: { cursor: string }[] } }; errors?: unknown };
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data;
    };
    const rows: (string | number)[][] = [];
    try {
      for (const queryCase of proofQueryCases) {
        const filter = parsedFilter(queryCase.filter);
        // A cursor case starts after the proof at its position, as a client paging by cursor would.
        const after =
          queryCase.cursorAt === undefined
            ? null
            : (await post(cursorQuery, { offset: queryCase.cursorAt - 1, filter: queryCase.filter ?? null, sortOrder: queryCase.sortOrder ?? null }))?.aopd.proofs?.[0]?.cursor ?? null;
        const select = selectProofs(db, filter, queryCase.sortOrder as never, defaultFilterLimits, after).limit(queryCase.limit);
        const page = (queryCase.offset > 0 ? select.offset(queryCase.offset) : select).compile();
        const counted = countProofsQuery(db, filter, defaultFilterLimits).compile();
        const variables = { offset: queryCase.offset, limit: queryCase.limit, filter: queryCase.filter ?? null, sortOrder: queryCase.sortOrder ?? null, after };
        for (const [label, graphql, compiled, vars] of [
          ["proofs", pageQuery, page, variables],
          ["proofsCount", countQuery, counted, { filter: queryCase.filter ?? null }],
        ] as const) {
          const raw = await measureLatency(() => pool.query(compiled.sql, [...compiled.parameters]), iterations);
          const through = await measureLatency(() => post(graphql, vars), iterations);
          const rawP50 = percentile(raw, 50);
          const subgraphP50 = percentile(through, 50);
          const withinAim = subgraphP50 <= 1.5 * rawP50 + 1;
          rows.push([`${queryCase.name}`, label, ms(rawP50), ms(percentile(raw, 95)), ms(subgraphP50), ms(percentile(through, 95)), (subgraphP50 / rawP50).toFixed(2), withinAim ? "yes" : "no"]);
        }
      }
    } finally {
      await db.destroy();
      await subgraph.stop();
    }
    const table: BenchmarkTable = {
      title: `Proof queries on ${count.toLocaleString("en")} proofs: aopd subgraph vs raw SQL`,
      method:
        `PostgreSQL server on loopback; the aopd subgraph in its own process (verifying an internal identity token on every request, as in production), called over HTTP one request at a time; the raw column runs the exact SQL the subgraph compiles, through \`pg\`, from the benchmark process. ${iterations} timed calls after 3 warm-up calls; milliseconds.` +
        (seededSeconds !== undefined ? ` Seeding took ${seededSeconds.toFixed(1)} s (${Math.round(count / seededSeconds).toLocaleString("en")} rows/s).` : ""),
      columns: ["query", "field", "raw p50", "raw p95", "subgraph p50", "subgraph p95", "ratio p50", "within 1.5x + 1 ms"],
      rows,
      notes: ["Aim: the subgraph within 1.5x of raw SQL plus a fixed millisecond."],
    };
    return [table];
  },
};

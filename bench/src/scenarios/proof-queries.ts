import os from "node:os";
import pg from "pg";
import { Kysely, PostgresDialect } from "kysely";
import { type AopdDatabase, countProofsQuery, proofColumnsFor, proofOrder, selectProofPage } from "@compliance-graph/aopd/internals";
import { defaultFilterLimits } from "@compliance-graph/filter";
import { createSubgraphFetcher } from "@compliance-graph/gateway";
import { createInternalTokenMinter, generateInternalSigningKey } from "@compliance-graph/identity";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { ensureSeededDatabase } from "../support/bench-database.js";
import { measureLatencyPair, ms, percentile } from "../support/latency.js";
import { freePort, parsedFilter, proofQueryCases, startProcess } from "@compliance-graph/test-kit";

const pageFields = ["__typename", "id", "createdAt", "address", "customerId", "asset", "comment", "status"];
const pageQuery = `query($offset: Int!, $limit: Int!, $filter: AopdProofFilterInput, $sortOrder: [AopdProofSortInput!], $after: String) {
  aopd { proofs(offset: $offset, limit: $limit, filter: $filter, sortOrder: $sortOrder, after: $after) { ${pageFields.join(" ")} } } }`;
const countQuery = `query($filter: AopdProofFilterInput) { aopd { proofsCount(filter: $filter) } }`;
const cursorQuery = `query($offset: Int!, $filter: AopdProofFilterInput, $sortOrder: [AopdProofSortInput!]) {
  aopd { proofs(offset: $offset, limit: 1, filter: $filter, sortOrder: $sortOrder) { cursor } } }`;

export const proofQueriesScenario: BenchmarkScenario = {
  name: "proof-queries",
  async run({ quick }) {
    const loadAtStart = os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(", ");
    const count = quick ? 20_000 : 1_000_000;
    const iterations = quick ? 20 : 200;
    const { url, seededSeconds } = await ensureSeededDatabase(quick ? "aopd_bench_quick" : "aopd_bench", count);
    const port = await freePort();
    // As in production: the subgraph verifies the gateway's internal token on every request.
    const key = await generateInternalSigningKey("bench");
    const token = await (
      await createInternalTokenMinter({ privateJwk: key.privateJwk, ttlSeconds: 3_600 })
    )({ subject: "bench", client: "bench", roles: ["proofs:read"] }, "aopd");
    const subgraph = await startProcess(
      "subgraphs/aopd/src/main.ts",
      { AOPD_PORT: String(port), DATABASE_URL: url, INTERNAL_JWT_PUBLIC_JWKS: JSON.stringify({ keys: [key.publicJwk] }), AOPD_EXPIRY_INTERVAL_SECONDS: "0" },
      `http://127.0.0.1:${port}/health/ready`,
    );
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const db = new Kysely<AopdDatabase>({ dialect: new PostgresDialect({ pool }) });
    // The subgraph is called as the gateway calls it: its HTTP client, keep-alive, no sharing of identical calls.
    const subgraphFetcher = createSubgraphFetcher({ deduplicateQueries: false });
    const post = async (query: string, variables: unknown) => {
      const response = await subgraphFetcher.fetcher(`http://127.0.0.1:${port}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables }),
      });
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
            : ((await post(cursorQuery, { offset: queryCase.cursorAt - 1, filter: queryCase.filter ?? null, sortOrder: queryCase.sortOrder ?? null }))?.aopd
                .proofs?.[0]?.cursor ?? null);
        // The columns the subgraph reads for this selection, as its resolver chooses them.
        const columns = proofColumnsFor(pageFields, proofOrder(queryCase.sortOrder as never));
        const select = selectProofPage(db, { filter, sortOrder: queryCase.sortOrder as never, after }, defaultFilterLimits, columns).limit(queryCase.limit);
        const page = (queryCase.offset > 0 ? select.offset(queryCase.offset) : select).compile();
        const counted = countProofsQuery(db, filter, defaultFilterLimits).compile();
        const variables = { offset: queryCase.offset, limit: queryCase.limit, filter: queryCase.filter ?? null, sortOrder: queryCase.sortOrder ?? null, after };
        for (const [label, graphql, compiled, vars] of [
          ["proofs", pageQuery, page, variables],
          ["proofsCount", countQuery, counted, { filter: queryCase.filter ?? null }],
        ] as const) {
          // Slow rows (counts of a million rows, deep offsets) stop after 20 s, with 40 calls at least.
          const [raw, through] = await measureLatencyPair(
            () => pool.query(compiled.sql, [...compiled.parameters]),
            () => post(graphql, vars),
            iterations,
            { budgetMs: quick ? 5_000 : 20_000, minIterations: quick ? 10 : 40 },
          );
          const [rawP50, rawP99] = [percentile(raw, 50), percentile(raw, 99)];
          const [subgraphP50, subgraphP99] = [percentile(through, 50), percentile(through, 99)];
          const withinAim = subgraphP50 <= 1.5 * rawP50 + 1 && subgraphP99 <= 1.5 * rawP99 + 1;
          rows.push([
            `${queryCase.name}`,
            label,
            ms(rawP50),
            ms(rawP99),
            ms(subgraphP50),
            ms(subgraphP99),
            (subgraphP50 / rawP50).toFixed(2),
            (subgraphP99 / rawP99).toFixed(2),
            withinAim ? "yes" : "no",
          ]);
        }
      }
    } finally {
      await db.destroy();
      await subgraphFetcher.close();
      await subgraph.stop();
    }
    const table: BenchmarkTable = {
      title: `Proof queries on ${count.toLocaleString("en")} proofs: aopd subgraph vs raw SQL`,
      method:
        `PostgreSQL server on loopback; the aopd subgraph in its own process (verifying an internal identity token on every request, as in production), called over HTTP one request at a time with the gateway's own subgraph client (undici's \`request\` on a keep-alive pool; WHATWG \`fetch\` adds about 0.8 ms per call on this machine); the raw column runs the exact SQL the subgraph compiles, through \`pg\`, from the benchmark process. ${iterations} timed calls (or as many as fit in 20 s, at least 40) after 3 warm-up calls, raw and subgraph called in turn; milliseconds.` +
        (seededSeconds !== undefined ? ` Seeding took ${seededSeconds.toFixed(1)} s (${Math.round(count / seededSeconds).toLocaleString("en")} rows/s).` : ""),
      columns: ["query", "field", "raw p50", "raw p99", "subgraph p50", "subgraph p99", "ratio p50", "ratio p99", "within 1.5x + 1 ms"],
      rows,
      notes: [
        'Aim: the subgraph within 1.5x of raw SQL plus a fixed millisecond, at p50 and at p99 ("yes" only when both are).',
        `Load average when the scenario started: ${loadAtStart}; when it ended: ${os
          .loadavg()
          .map((load) => load.toFixed(2))
          .join(", ")} (1, 5, 15 min). Other work on the machine moves both columns; compare the ratios of one run.`,
      ],
    };
    return [table];
  },
};

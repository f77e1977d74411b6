import type { BenchmarkTable } from "../benchmark-report.js";
import { renderBarChartSvg } from "../support/bar-chart-svg.js";
import { packageVersion } from "../support/package-version.js";
import type { LoadResult } from "../support/run-autocannon.js";

/** One target's best round on one workload, with the peak memory of all its rounds. */
export interface Measurement extends LoadResult {
  target: string;
  query: string;
  peakRssBytes: number;
}

/** The gateway comparison's table and chart: each row's figures and its ratio to the first target ("ours"). */
export function comparisonTable(input: {
  proofCount: number;
  durationSeconds: number;
  warmupSeconds: number;
  rounds: number;
  connections: number;
  measurements: Measurement[];
  workloadNames: string[];
  identities: number;
  loadAverages: number[];
}): BenchmarkTable {
  const { measurements } = input;
  const targets = [...new Set(measurements.map((m) => m.target))];
  const queries = input.workloadNames;
  const loads = [...input.loadAverages].sort((a, b) => a - b);
  const find = (target: string, query: string) => measurements.find((m) => m.target === target && m.query === query);
  const ours = targets[0] ?? "ours";
  const rows = measurements.map((m) => {
    const base = find(ours, m.query);
    const ratio = base ? base.requestsPerSecond / m.requestsPerSecond : Number.NaN;
    return [
      m.query,
      m.target,
      Math.round(m.requestsPerSecond).toLocaleString("en"),
      m.p50.toFixed(1),
      m.p99.toFixed(1),
      Math.round(m.peakRssBytes / 2 ** 20),
      ratio.toFixed(2),
    ];
  });
  const versions = ["@apollo/gateway", "@apollo/server", "@graphql-hive/gateway", "autocannon"].map((name) => `${name} ${packageVersion(name)}`).join(", ");
  const values = (pick: (m: Measurement) => number) =>
    queries.map((query) => targets.map((target) => (find(target, query) ? pick(find(target, query)!) : undefined)));
  return {
    title: `Gateways side by side on ${input.proofCount.toLocaleString("en")} proofs`,
    method:
      `aopd (PostgreSQL server on loopback, ${input.proofCount.toLocaleString("en")} seeded proofs) and trpd, each in its own process and verifying the internal identity token, ` +
      `behind each gateway in its own process; autocannon in a further process, ${input.connections} keep-alive connections, ${input.warmupSeconds} s warm-up then ${input.durationSeconds} s measured, the targets taking turns, best of ${input.rounds} round(s) per row; loopback only. ` +
      `Ours verifies a real access token from the development identity provider and mints internal tokens; the others send a static internal token per subgraph. ` +
      `Peak RSS: the server process (and its workers), sampled every 100 ms during the measured run. "ours ÷ this": our req/s divided by this row's. Versions: ${versions}. See docs/benchmark-method.md.`,
    columns: ["query", "server", "req/s", "p50 ms", "p99 ms", "peak RSS MiB", "ours ÷ this"],
    rows,
    notes: [
      "Aims: ours ahead of both gateways on every query (2x stock @apollo/gateway where the subgraph is not the bottleneck), and at least 0.6x the req/s of calling aopd directly (ours ÷ direct >= 0.6).",
      "The join query cannot be sent to aopd alone, so it has no direct row.",
      `"ours, N workers" is the same gateway with GATEWAY_WORKERS=N (node:cluster, N = the machine's cores); the subgraphs, PostgreSQL and the load generator share those cores.`,
      'Ours and Hive Gateway share one subgraph call among identical subgraph queries in flight for the same identity; the repeated rows (page of 50, page of 50 + trpd join, proofsCount) send one operation over and over, which is where that helps most (docs/benchmark-method.md). "ours, no query sharing" is ours with GATEWAY_DEDUPLICATE_QUERIES=false, the fair row against stock @apollo/gateway, which does not share.',
      `The varied rows send a seeded rotation of distinct requests (bench/src/support/varied-gateway-workload.ts): pages with rotating filters, sort orders, offsets, cursors and page sizes, and one proofsCount in five; ours gets each request with the token of one of ${input.identities} identities (a client each at the development identity provider), the others their static internal token. No two requests in flight are the same, so query sharing cannot help: this is what a compliance team's screens send.`,
      loads.length > 0
        ? `Load average (1 min) after each measured run: ${loads[0]!.toFixed(1)} to ${loads.at(-1)!.toFixed(1)}, median ${loads[Math.floor(loads.length / 2)]!.toFixed(1)}; compare rows of one run.`
        : "",
    ].filter(Boolean),
    chart: {
      name: "gateway-comparison",
      title: "Throughput and latency per gateway and query",
      svg: renderBarChartSvg({
        groups: queries,
        series: targets,
        panels: [
          { title: "Throughput", unit: "req/s", values: values((m) => m.requestsPerSecond) },
          { title: "Median latency", unit: "ms", values: values((m) => m.p50) },
          { title: "p99 latency", unit: "ms", values: values((m) => m.p99) },
        ],
      }),
    },
  };
}

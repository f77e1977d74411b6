import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os, { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startDevIdentityProvider } from "@compliance-graph/dev-identity-provider";
import { type BenchProcess, fetchToken, freePort, startProcess } from "@compliance-graph/test-kit";
import type { BenchmarkScenario, BenchmarkTable } from "../../benchmark-report.js";
import { packageVersion } from "../../support/package-version.js";
import { samplePeakRss } from "../../support/peak-rss.js";
import { treeCpuMs } from "../../support/process-cpu.js";
import { runClosedLoopLoad, type ClosedLoopResult } from "../../support/run-closed-loop-load.js";
import { generateBenchmarkData } from "./benchmark-data.js";
import { bigQuery, referenceAnswers, smallQuery } from "./benchmark-queries.js";
import { composeBenchmarkSupergraph } from "./compose-benchmark-supergraph.js";

const here = (file: string) => fileURLToPath(new URL(`./${file}`, import.meta.url));

interface Target {
  name: string;
  start(): Promise<{ url: string; headers: Record<string, string>; process: BenchProcess }>;
}

interface Run extends ClosedLoopResult {
  target: string;
  query: string;
  round: number;
  cpuMsPerRequest: number;
  peakRssBytes: number;
  load: number;
}

const graphqlHeaders = { "content-type": "application/json" };
const queries = [
  { name: "big query", body: JSON.stringify({ query: bigQuery }) },
  { name: "small query", body: JSON.stringify({ query: smallQuery }) },
];

/**
 * The public federation benchmark (graphql-hive/graphql-gateways-benchmark) reproduced: its four
 * subgraphs (ported to Node in this folder, replaying their answers so that the gateways
 * dominate), its supergraph and its one query, plus a small query; ours, stock `@apollo/gateway`,
 * Hive Gateway and Hive Gateway with `@graphql-hive/router-runtime` side by side, taking turns
 * round after round under a closed-loop load of 50 connections (k6's 50 virtual users).
 * Every gateway's answer must equal the reference computed from the data alone before any load.
 * See docs/benchmark-method.md, "The federation benchmark".
 */
export const federationBenchmarkScenario: BenchmarkScenario = {
  name: "federation-benchmark",
  async run({ quick }) {
    // `BENCH_FEDERATION_ROUNDS`, `BENCH_FEDERATION_SECONDS`: rounds and measured seconds per turn. @default 3, 8
    const rounds = quick ? 1 : Number(process.env.BENCH_FEDERATION_ROUNDS ?? 3);
    const durationSeconds = quick ? 2 : Number(process.env.BENCH_FEDERATION_SECONDS ?? 8);
    const warmupSeconds = quick ? 1 : 3;
    const connections = 50;
    // `BENCH_FEDERATION_TARGETS`: only the targets whose names contain one of these `;`-separated words (profiling runs).
    const only = process.env.BENCH_FEDERATION_TARGETS?.split(";")
      .map((word) => word.trim())
      .filter(Boolean);
    const reference = referenceAnswers(generateBenchmarkData());
    const expected = new Map([
      ["big query", JSON.stringify({ data: reference.big })],
      ["small query", JSON.stringify({ data: reference.small })],
    ]);
    const folder = await mkdtemp(join(tmpdir(), "cg-federation-bench-"));
    const stack: BenchProcess[] = [];
    const idp = await startDevIdentityProvider({ accessTokenTtlSeconds: 3_600 });
    const runs: Run[] = [];
    try {
      const subgraphPort = await freePort();
      stack.push(await startProcess(here("serve-benchmark-subgraphs.ts"), { PORT: String(subgraphPort) }, `http://127.0.0.1:${subgraphPort}/health`));
      const supergraphPath = join(folder, "supergraph.graphql");
      await writeFile(
        supergraphPath,
        composeBenchmarkSupergraph((name) => `http://127.0.0.1:${subgraphPort}/${name}`),
      );
      const emptyRoutes = join(folder, "subgraph-routes.yaml");
      await writeFile(emptyRoutes, "routes: []\n");
      const token = await fetchToken(idp.tokenEndpoint, "dev-api-client", "dev-secret");
      const readyPost = (url: string, headers: Record<string, string> = {}) => ({
        url,
        init: { method: "POST", headers: { ...graphqlHeaders, ...headers }, body: JSON.stringify({ query: "{ __typename }" }) },
      });

      const ours = (name: string, env: Record<string, string>): Target => ({
        name,
        async start() {
          const port = await freePort();
          const url = `http://127.0.0.1:${port}/graphql`;
          const headers = { authorization: `Bearer ${token}` };
          const gatewayEnv = {
            PORT: String(port),
            SUPERGRAPH_PATH: supergraphPath,
            SUBGRAPH_ROUTES_PATH: emptyRoutes,
            OIDC_ISSUER: idp.issuer,
            OIDC_AUDIENCE: idp.audience,
            ...env,
          };
          return { url, headers, process: await startProcess("gateway/src/main.ts", gatewayEnv, readyPost(url, headers)) };
        },
      });
      const hive = (name: string, env: Record<string, string>, args: string[] = []): Target => ({
        name,
        async start() {
          const port = await freePort();
          const url = `http://127.0.0.1:${port}/graphql`;
          const cli = [
            "supergraph",
            supergraphPath,
            "--config-path",
            here("hive-gateway.config.ts"),
            "--port",
            String(port),
            "--host",
            "127.0.0.1",
            "--fork",
            "1",
            ...args,
          ];
          return { url, headers: {}, process: await startProcess("node_modules/@graphql-hive/gateway/dist/bin.js", env, readyPost(url), cli) };
        },
      });
      const allTargets: Target[] = [
        ours("ours", {}),
        ours("ours, no inbound sharing", { GATEWAY_SHARE_REQUESTS: "false" }),
        ours("ours, 2 workers, no inbound sharing", { GATEWAY_SHARE_REQUESTS: "false", GATEWAY_WORKERS: "2" }),
        {
          name: "@apollo/gateway",
          async start() {
            const port = await freePort();
            const url = `http://127.0.0.1:${port}/graphql`;
            return {
              url,
              headers: {},
              process: await startProcess("bench/src/support/stock-apollo-gateway.ts", { PORT: String(port), SUPERGRAPH_PATH: supergraphPath }, readyPost(url)),
            };
          },
        },
        hive("Hive Gateway", {}),
        hive("Hive Gateway, as the benchmark runs it (--jit, inbound sharing)", { BENCH_HIVE_INBOUND_SHARING: "true" }, ["--jit"]),
        hive("Hive Gateway + router-runtime, no inbound sharing", { BENCH_HIVE_ROUTER_RUNTIME: "true" }),
        hive("Hive Gateway + router-runtime, as the benchmark runs it (inbound sharing)", {
          BENCH_HIVE_ROUTER_RUNTIME: "true",
          BENCH_HIVE_INBOUND_SHARING: "true",
        }),
      ];
      const targets = only ? allTargets.filter((target) => only.some((word) => target.name.includes(word))) : allTargets;
      // Started one at a time: start-up compiles TypeScript, and several at once on two cores take minutes.
      const servers: { target: Target; url: string; headers: Record<string, string>; process: BenchProcess }[] = [];
      for (const target of targets) {
        const server = await target.start();
        stack.push(server.process);
        servers.push({ target, ...server });
      }

      // Every answer equal to the reference (same fields, same order, same values) before any load;
      // its length is then what the load checks on every answer.
      const expectedBytes = new Map<string, number>();
      for (const server of servers) {
        for (const query of queries) {
          const response = await fetch(server.url, { method: "POST", headers: { ...graphqlHeaders, ...server.headers }, body: query.body });
          const text = await response.text();
          if (response.status !== 200 || JSON.stringify(JSON.parse(text)) !== expected.get(query.name)) {
            throw new Error(
              `${server.target.name} answered the ${query.name} with something other than the reference (${response.status}): ${text.slice(0, 300)}`,
            );
          }
          expectedBytes.set(`${server.target.name}\n${query.name}`, Buffer.byteLength(text));
        }
      }
      const load = (server: (typeof servers)[number], query: (typeof queries)[number], seconds: number) =>
        runClosedLoopLoad({
          url: server.url,
          body: query.body,
          headers: { ...graphqlHeaders, ...server.headers },
          connections,
          durationSeconds: seconds,
          expectedBytes: expectedBytes.get(`${server.target.name}\n${query.name}`),
        });
      // A fresh process runs cold code: each target gets each query once before anything is measured.
      for (const server of servers) for (const query of queries) await load(server, query, warmupSeconds);

      for (let round = 1; round <= rounds; round += 1) {
        for (const query of queries) {
          for (const server of servers) {
            await load(server, query, warmupSeconds);
            const pid = server.process.child.pid ?? 0;
            const rss = samplePeakRss(pid);
            const cpuBefore = treeCpuMs(pid);
            const result = await load(server, query, durationSeconds);
            const cpuMs = treeCpuMs(pid) - cpuBefore;
            const peakRssBytes = rss.stop();
            if (result.failures > 0)
              throw new Error(
                `${server.target.name}, ${query.name}: ${result.failures} of ${result.requests} answers failed; the first: ${result.firstFailure}`,
              );
            const run = {
              ...result,
              target: server.target.name,
              query: query.name,
              round,
              cpuMsPerRequest: cpuMs / result.requests,
              peakRssBytes,
              load: os.loadavg()[0]!,
            };
            runs.push(run);
            console.log(
              `round ${round}: ${run.target.padEnd(40).slice(0, 40)} ${run.query.padEnd(12)} ${run.requestsPerSecond.toFixed(0).padStart(6)} req/s  ${run.cpuMsPerRequest.toFixed(2)} CPU ms/req  p95 ${run.p95} ms  ${Math.round(peakRssBytes / 2 ** 20)} MiB  load ${run.load.toFixed(1)}`,
            );
          }
        }
      }
    } finally {
      await idp.close();
      for (const process of stack.reverse()) await process.stop();
      await rm(folder, { recursive: true, force: true });
    }
    return [federationTable({ runs, rounds, durationSeconds, warmupSeconds, connections })];
  },
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

function federationTable(input: { runs: Run[]; rounds: number; durationSeconds: number; warmupSeconds: number; connections: number }): BenchmarkTable {
  const { runs } = input;
  const targets = [...new Set(runs.map((run) => run.target))];
  const rows: (string | number)[][] = [];
  const summary = new Map<string, { rps: number; cpu: number }>();
  for (const query of queries.map((entry) => entry.name)) {
    for (const target of targets) {
      const mine = runs.filter((run) => run.query === query && run.target === target);
      if (mine.length === 0) continue;
      const rps = median(mine.map((run) => run.requestsPerSecond));
      const cpu = median(mine.map((run) => run.cpuMsPerRequest));
      summary.set(`${query}\n${target}`, { rps, cpu });
      rows.push([
        query,
        target,
        Math.round(rps).toLocaleString("en"),
        cpu.toFixed(2),
        median(mine.map((run) => run.p95)).toFixed(1),
        Math.round(Math.max(...mine.map((run) => run.peakRssBytes)) / 2 ** 20),
        mine.map((run) => Math.round(run.requestsPerSecond)).join(" / "),
      ]);
    }
  }
  const ratio = (query: string, a: string, b: string, pick: "rps" | "cpu") => {
    const x = summary.get(`${query}\n${a}`);
    const y = summary.get(`${query}\n${b}`);
    return x && y ? (x[pick] / y[pick]).toFixed(2) : "n/a";
  };
  const rr = "Hive Gateway + router-runtime, no inbound sharing";
  const rrShared = "Hive Gateway + router-runtime, as the benchmark runs it (inbound sharing)";
  const loads = runs.map((run) => run.load).sort((a, b) => a - b);
  const bestPeerSmall = Math.max(...targets.filter((target) => !target.startsWith("ours")).map((target) => summary.get(`small query\n${target}`)?.rps ?? 0));
  const versions = ["@apollo/gateway", "@apollo/server", "@graphql-hive/gateway", "@graphql-hive/router-runtime", "graphql"]
    .map((name) => `${name} ${packageVersion(name)}`)
    .join(", ");
  return {
    title: "The public federation benchmark's workload: four subgraphs, one big query",
    method:
      `graphql-hive/graphql-gateways-benchmark's workload reproduced (bench/src/scenarios/federation-benchmark/): its four subgraphs ported to Node in one process, replaying their first answer to each request body; ` +
      `its supergraph (composed from our subgraph files) and its query (about 87 KB of answer), and a small query (\`{ users { id username } }\`). Each gateway in its own process on loopback, ` +
      `a closed-loop load of ${input.connections} connections in a further process (k6's 50 virtual users), ${input.warmupSeconds} s warm-up then ${input.durationSeconds} s measured per turn, the targets taking turns, ${input.rounds} round(s); ` +
      `req/s, CPU and p95 are the median over the rounds. CPU ms per request: user + system time of the gateway's process (and its workers) during the measured seconds, divided by the answers. ` +
      `Peak RSS: the highest over the rounds, sampled every 100 ms. Ours verifies a real access token and mints internal tokens for each subgraph call; the others take anonymous requests. Node ${process.version}; versions: ${versions}.`,
    columns: ["query", "gateway", "req/s", "CPU ms per request", "p95 ms", "peak RSS MiB", "req/s per round"],
    rows,
    notes: [
      `Big query, no inbound sharing on either side: our CPU per request ÷ Hive Gateway + router-runtime's = ${ratio("big query", "ours, no inbound sharing", rr, "cpu")} (aim at most 0.8); our req/s ÷ theirs = ${ratio("big query", "ours, no inbound sharing", rr, "rps")}.`,
      `Big query, each as its benchmark configuration runs it (ours: inbound sharing on by default): our req/s ÷ Hive Gateway + router-runtime's = ${ratio("big query", "ours", rrShared, "rps")} (aim at least 1.0).`,
      `Small query: our req/s ÷ the best peer's = ${summary.get("small query\nours") ? (summary.get("small query\nours")!.rps / bestPeerSmall).toFixed(2) : "n/a"} (aim at least 1.0).`,
      `GATEWAY_WORKERS=2 on the big query: ${ratio("big query", "ours, 2 workers, no inbound sharing", "ours, no inbound sharing", "rps")}x one process's req/s (aim at least 1.6; the load generator and the subgraphs share the same two cores).`,
      loads.length > 0
        ? `Load average (1 min) after each measured turn: ${loads[0]!.toFixed(1)} to ${loads.at(-1)!.toFixed(1)}, median ${median(loads).toFixed(1)}; compare rows of one run.`
        : "",
    ].filter(Boolean),
  };
}

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { isDeepStrictEqual } from "node:util";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os, { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { devIdentityProviderConfigFromEnv, startDevIdentityProvider } from "@compliance-graph/dev-identity-provider";
import { parse } from "graphql";
import { createInternalTokenMinter, generateInternalSigningKey, RequiredRoles } from "@compliance-graph/identity";
import type { BenchmarkScenario } from "../benchmark-report.js";
import { ensureSeededDatabase } from "../support/bench-database.js";
import { gatewayQueries, type GatewayQuery } from "../support/gateway-queries.js";
import { samplePeakRss } from "../support/peak-rss.js";
import { runAutocannon, runVariedAutocannon, type LoadResult } from "../support/run-autocannon.js";
import { buildVariedWorkload, type CursorAt } from "../support/varied-gateway-workload.js";
import type { VariedLoadPlan } from "../support/varied-load-process.js";
import { type BenchProcess, fetchToken, freePort, startProcess } from "@compliance-graph/test-kit";
import { comparisonTable, type Measurement } from "./gateway-comparison-table.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));

interface Target {
  name: string;
  /** Starts the server; returns its /graphql URL, the headers a caller sends and its process. */
  start(): Promise<{ url: string; headers: Record<string, string>; process: BenchProcess; external?: boolean }>;
  /** Only operations every part of which this target can serve. */
  serves(query: { aopdOnly: boolean }): boolean;
  /** Verifies callers' access tokens, so the varied workload sends each request with its identity's token. */
  identities?: boolean;
}

/** One row group of the table: a repeated operation or a varied workload, run against one server. */
interface Workload {
  name: string;
  aopdOnly: boolean;
  /** Each target's load, from its URL and headers. */
  load(server: { url: string; headers: Record<string, string>; target: Target }, durationSeconds: number): Promise<LoadResult>;
}

const graphqlHeaders = { "content-type": "application/json" };
const readyPost = (url: string, headers: Record<string, string> = {}) => ({
  url,
  init: { method: "POST", headers: { ...graphqlHeaders, ...headers }, body: JSON.stringify({ query: "{ __typename }" }) },
});

async function postData(url: string, headers: Record<string, string>, query: Pick<GatewayQuery, "query" | "variables">): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...graphqlHeaders, ...headers },
    body: JSON.stringify({ query: query.query, variables: query.variables }),
  });
  const body = (await response.json()) as { data?: unknown; errors?: unknown };
  if (response.status !== 200 || body.errors) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(body.errors ?? body)}`);
  return body.data;
}

export const gatewayComparisonScenario: BenchmarkScenario = {
  name: "gateway-comparison",
  async run({ quick }) {
    const proofCount = quick ? 5_000 : 100_000;
    const durationSeconds = quick ? 2 : 6;
    const warmupSeconds = quick ? 1 : 2;
    // `BENCH_GATEWAY_ROUNDS`: fewer rounds when the machine is too loaded for a full run. @default 3
    const rounds = quick ? 1 : Number(process.env.BENCH_GATEWAY_ROUNDS ?? 3);
    const connections = 16;
    const workers = availableParallelism();
    const { url: databaseUrl } = await ensureSeededDatabase(quick ? "aopd_bench_gateways_quick" : "aopd_bench_gateways", proofCount);
    const stack: BenchProcess[] = [];
    const folder = await mkdtemp(join(tmpdir(), "cg-bench-"));
    // The varied workload's officers: a service-account client each, with the roles of the
    // development API client, so that every one is an identity of its own at the gateway.
    const identities = quick ? 8 : 50;
    const defaultClients = devIdentityProviderConfigFromEnv().clients;
    const apiClient = defaultClients.find((client) => client.clientId === "dev-api-client");
    const officers = Array.from({ length: identities }, (_, index) => ({
      clientId: `bench-officer-${index}`,
      clientSecret: "bench-secret",
      roles: apiClient?.roles ?? [],
      serviceAccount: true,
    }));
    const idp = await startDevIdentityProvider({ accessTokenTtlSeconds: 3_600, clients: [...defaultClients, ...officers] });
    // The registry's `POST /usage` for the usage-recording row: it takes every report and keeps
    // nothing, so the row measures what recording costs the gateway.
    const usageSink = createServer((request, response) => {
      request.resume();
      request.on("end", () => response.writeHead(202, { "content-type": "application/json" }).end("{}"));
    });
    await new Promise<void>((resolve) => usageSink.listen(0, "127.0.0.1", resolve));
    const usageUrl = `http://127.0.0.1:${(usageSink.address() as AddressInfo).port}/usage`;
    const measurements: Measurement[] = [];
    const workloadNames: string[] = [];
    const loadAverages: number[] = [];
    try {
      // Subgraphs verify the internal token for everyone: the gateways differ only in how it is made.
      const key = await generateInternalSigningKey();
      const publicJwks = JSON.stringify({ keys: [key.publicJwk] });
      const [aopdPort, trpdPort] = [await freePort(), await freePort()];
      const subgraphEnv = { INTERNAL_JWT_PUBLIC_JWKS: publicJwks, AOPD_EXPIRY_INTERVAL_SECONDS: "0" };
      const aopd = await startProcess(
        "subgraphs/aopd/src/main.ts",
        { ...subgraphEnv, AOPD_PORT: String(aopdPort), DATABASE_URL: databaseUrl },
        `http://127.0.0.1:${aopdPort}/health/ready`,
      );
      stack.push(aopd);
      stack.push(
        await startProcess("subgraphs/trpd/src/main.ts", { ...subgraphEnv, TRPD_PORT: String(trpdPort) }, `http://127.0.0.1:${trpdPort}/health/ready`),
      );
      const supergraphPath = join(folder, "supergraph.graphql");
      const committed = await readFile(join(root, "supergraph.graphql"), "utf8");
      await writeFile(
        supergraphPath,
        committed
          .replace("http://localhost:4001/graphql", `http://127.0.0.1:${aopdPort}/graphql`)
          .replace("http://localhost:4002/graphql", `http://127.0.0.1:${trpdPort}/graphql`),
      );

      // What the other gateways send instead of minting: one long-lived token per subgraph.
      // An hour: the longest lifetime the subgraphs accept (INTERNAL_JWT_MAX_LIFETIME_SECONDS), and
      // longer than a full run.
      const mint = await createInternalTokenMinter({ privateJwk: key.privateJwk, ttlSeconds: 3_600 });
      // Every role the served supergraph declares, as the gateway would grant a caller with all of them.
      const benchIdentity = { subject: "bench", client: "bench", roles: RequiredRoles.fromDocument(parse(committed)).declaredRoles() };
      const staticAuthorization = JSON.stringify({ aopd: `Bearer ${await mint(benchIdentity, "aopd")}`, trpd: `Bearer ${await mint(benchIdentity, "trpd")}` });
      const accessToken = await fetchToken(idp.tokenEndpoint, "dev-api-client", "dev-secret");
      const officerTokens = await Promise.all(officers.map((officer) => fetchToken(idp.tokenEndpoint, officer.clientId, officer.clientSecret)));

      const gatewayTarget = (name: string, start: (port: number) => Promise<{ process: BenchProcess; headers?: Record<string, string> }>): Target => ({
        name,
        serves: () => true,
        async start() {
          const port = await freePort();
          const { process, headers = {} } = await start(port);
          return { url: `http://127.0.0.1:${port}/graphql`, headers, process };
        },
      });
      const ours = (name: string, extraEnv: Record<string, string>): Target => ({
        ...gatewayTarget(name, async (port) => {
          const headers = { authorization: `Bearer ${accessToken}` };
          const env = {
            PORT: String(port),
            SUPERGRAPH_PATH: supergraphPath,
            OIDC_ISSUER: idp.issuer,
            OIDC_AUDIENCE: idp.audience,
            INTERNAL_JWT_PRIVATE_JWK: JSON.stringify(key.privateJwk),
            ...extraEnv,
          };
          return { process: await startProcess("gateway/src/main.ts", env, readyPost(`http://127.0.0.1:${port}/graphql`, headers)), headers };
        }),
        identities: true,
      });
      const allTargets: Target[] = [
        ours("ours", {}),
        // Issue 34: usage recording on (GATEWAY_USAGE_URL, the registry's flush interval), against "ours", off.
        ours("ours, usage recording", { GATEWAY_USAGE_URL: usageUrl }),
        ours(`ours, ${workers} workers`, { GATEWAY_WORKERS: String(workers) }),
        ours("ours, no query sharing", { GATEWAY_DEDUPLICATE_QUERIES: "false" }),
        // The gateway before its own plan executor and request sharing (issue 36): the before of "not slower than today".
        ours("ours, Apollo's executor, no request sharing", { GATEWAY_EXECUTE_PLANS: "false", GATEWAY_SHARE_REQUESTS: "false" }),
        gatewayTarget("@apollo/gateway", async (port) => ({
          process: await startProcess(
            "bench/src/support/stock-apollo-gateway.ts",
            { PORT: String(port), SUPERGRAPH_PATH: supergraphPath, SUBGRAPH_AUTHORIZATION: staticAuthorization },
            readyPost(`http://127.0.0.1:${port}/graphql`),
          ),
        })),
        gatewayTarget("Hive Gateway", async (port) => ({
          process: await startProcess(
            "node_modules/@graphql-hive/gateway/dist/bin.js",
            { SUBGRAPH_AUTHORIZATION: staticAuthorization },
            readyPost(`http://127.0.0.1:${port}/graphql`),
            [
              "supergraph",
              supergraphPath,
              "--config-path",
              join(root, "bench/src/support/hive-gateway.config.ts"),
              "--port",
              String(port),
              "--host",
              "127.0.0.1",
            ],
          ),
        })),
        {
          name: "aopd directly",
          serves: (query) => query.aopdOnly,
          start: async () => ({
            url: `http://127.0.0.1:${aopdPort}/graphql`,
            headers: { authorization: JSON.parse(staticAuthorization).aopd as string },
            process: aopd,
            external: true,
          }),
        },
      ];
      // `BENCH_GATEWAY_TARGETS`: only the targets whose names are in this list, separated by `;` (a before-and-after run of two rows).
      const only = process.env.BENCH_GATEWAY_TARGETS?.split(";").map((name) => name.trim());
      const targets = only ? allTargets.filter((target) => only.includes(target.name)) : allTargets;

      // Every server runs from the start and the targets take turns on each query, round after
      // round: a neighbour's burst of CPU on this shared machine then hurts one round of one
      // target, and the best round is kept, rather than skewing one target's whole series.
      // Started together: start-up is mostly module loading, and the run is shorter for it.
      // allSettled, so that a target that fails to start leaves none still starting behind.
      const started = await Promise.allSettled(
        targets.map(async (target) => {
          const server = await target.start();
          if (!server.external) stack.push(server.process);
          return { target, ...server };
        }),
      );
      const servers = started.map((outcome) => {
        if (outcome.status === "rejected") throw outcome.reason;
        return outcome.value;
      });
      // The varied workloads (support/varied-gateway-workload.ts), with cursors looked up at aopd.
      const aopdDirect = { url: `http://127.0.0.1:${aopdPort}/graphql`, headers: { authorization: JSON.parse(staticAuthorization).aopd as string } };
      const cursorAt: CursorAt = async (filter, sortOrder, position) => {
        const data = (await postData(aopdDirect.url, aopdDirect.headers, {
          query: `query($offset: Int!, $filter: AopdProofFilterInput, $sortOrder: [AopdProofSortInput!]) { aopd { proofs(offset: $offset, limit: 1, filter: $filter, sortOrder: $sortOrder) { cursor } } }`,
          variables: { offset: position, filter, sortOrder },
        })) as { aopd: { proofs: { cursor: string }[] } };
        return data.aopd.proofs[0]?.cursor;
      };
      const variedOptions = { size: quick ? 500 : 4_000, identities, customers: Math.max(50, Math.ceil(proofCount / 20)), cursorAt };
      const varied = [
        await buildVariedWorkload({ ...variedOptions, name: "varied pages and counts", join: false, seed: 15 }),
        await buildVariedWorkload({ ...variedOptions, name: "varied pages + trpd join", join: true, seed: 16 }),
      ];
      // Each request with the token of its identity for ours; the others send their static token.
      const authorizationFor = (server: (typeof servers)[number], identity: number) =>
        server.target.identities ? `Bearer ${officerTokens[identity % officerTokens.length]}` : server.headers.authorization;
      const planFiles = new Map<string, string>();
      for (const workload of varied) {
        for (const [index, server] of servers.entries()) {
          const file = join(folder, `${workload.name.replace(/\W+/g, "-")}-${index}.json`);
          const plan: VariedLoadPlan = {
            url: server.url,
            connections,
            durationSeconds,
            headers: { ...graphqlHeaders, ...server.headers },
            requests: workload.requests.map((request) => ({ body: request.body, authorization: authorizationFor(server, request.identity) })),
          };
          await writeFile(file, JSON.stringify(plan));
          planFiles.set(`${workload.name}\n${server.target.name}`, file);
        }
      }
      const workloads: Workload[] = [
        ...gatewayQueries.map((query) => ({
          name: query.name,
          aopdOnly: query.aopdOnly,
          load: (server: { url: string; headers: Record<string, string> }, seconds: number) =>
            runAutocannon({
              url: server.url,
              body: JSON.stringify({ query: query.query, variables: query.variables }),
              headers: { ...graphqlHeaders, ...server.headers },
              connections,
              durationSeconds: seconds,
            }),
        })),
        ...varied.map((workload) => ({
          name: workload.name,
          aopdOnly: workload.aopdOnly,
          load: async (server: { url: string; target: Target }, seconds: number) => {
            const file = planFiles.get(`${workload.name}\n${server.target.name}`)!;
            const plan = JSON.parse(await readFile(file, "utf8")) as VariedLoadPlan;
            if (plan.durationSeconds !== seconds) await writeFile(file, JSON.stringify({ ...plan, durationSeconds: seconds }));
            return runVariedAutocannon(file);
          },
        })),
      ];
      workloadNames.push(...workloads.map((workload) => workload.name));

      // A fresh process runs cold code (tsx compiling, V8 not yet optimising) for its first seconds;
      // each server gets every workload once before any round is measured.
      for (const server of servers) {
        for (const workload of workloads.filter((candidate) => server.target.serves(candidate))) await workload.load(server, warmupSeconds);
      }
      for (const workload of workloads) {
        const serving = servers.filter((server) => server.target.serves(workload));
        // Every target must return the same data, or its figures would compare different work: the
        // repeated operation, or the first requests of the varied rotation, each with its identity.
        const query = gatewayQueries.find((candidate) => candidate.name === workload.name);
        const samples = query
          ? [{ body: JSON.stringify({ query: query.query, variables: query.variables }), identity: 0 }]
          : varied.find((candidate) => candidate.name === workload.name)!.requests.slice(0, 12);
        for (const sample of samples) {
          let expected: unknown;
          for (const server of serving) {
            const headers = { ...server.headers, ...(query ? {} : { authorization: authorizationFor(server, sample.identity)! }) };
            const { query: text, variables } = JSON.parse(sample.body) as { query: string; variables: Record<string, unknown> };
            const data = await postData(server.url, headers, { query: text, variables });
            if (expected === undefined) expected = data;
            else if (!isDeepStrictEqual(data, expected)) throw new Error(`${server.target.name} returned other data for ${workload.name}`);
          }
        }
        for (let round = 0; round < rounds; round += 1) {
          for (const server of serving) {
            const { target, process } = server;
            await workload.load(server, warmupSeconds);
            const rss = samplePeakRss(process.child.pid ?? 0);
            const result = await workload.load(server, durationSeconds);
            const peakRssBytes = rss.stop();
            if (result.failures > 0) throw new Error(`${target.name}, ${workload.name}: ${result.failures} of ${result.requests} requests failed`);
            console.log(
              `round ${round + 1}: ${target.name.padEnd(18)} ${workload.name.padEnd(24)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  ${Math.round(peakRssBytes / 2 ** 20)} MiB  load ${os.loadavg()[0]!.toFixed(1)}`,
            );
            loadAverages.push(os.loadavg()[0]!);
            const previous = measurements.findIndex((m) => m.target === target.name && m.query === workload.name);
            const measurement = {
              ...result,
              target: target.name,
              query: workload.name,
              peakRssBytes: Math.max(peakRssBytes, measurements[previous]?.peakRssBytes ?? 0),
            };
            if (previous === -1) measurements.push(measurement);
            else if (result.requestsPerSecond > measurements[previous]!.requestsPerSecond) measurements[previous] = measurement;
            else measurements[previous]!.peakRssBytes = measurement.peakRssBytes;
          }
        }
      }
    } finally {
      await idp.close();
      for (const process of stack.reverse()) await process.stop();
      // After the gateways: their last flush on the way out is taken too.
      await new Promise<void>((resolve) => usageSink.close(() => resolve()));
      await rm(folder, { recursive: true, force: true });
    }
    return [comparisonTable({ proofCount, durationSeconds, warmupSeconds, rounds, connections, measurements, workloadNames, identities, loadAverages })];
  },
};

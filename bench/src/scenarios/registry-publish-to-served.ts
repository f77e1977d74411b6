import { mkdtemp, readFile, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInternalTokenMinter, createInternalTokenVerifier, generateInternalSigningKey, type Identity } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import { startRegistry } from "@compliance-graph/registry";
import { freePort, startProcess, type BenchProcess } from "@compliance-graph/test-kit";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";
import { ms, percentile } from "../support/latency.js";

const root = new URL("../../../", import.meta.url);
const publisher: Identity = { subject: "bench-publisher", client: "bench-pipeline", roles: ["schema:publish"] };
/** How often the scenario reads each gateway's served version. */
const readEveryMs = 20;
const versionLine = /^gateway_registry_supergraph_version\{[^}]*\} (\d+)$/m;

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(", ");

/**
 * Publish to served: the registry on PostgreSQL, two gateway processes taking their supergraph from
 * it at the default poll interval (`GATEWAY_REGISTRY_POLL_INTERVAL_MS`, 2 s), and `publishes`
 * publishes of trpd alternating between two versions (a field added, then removed again: nobody
 * uses it, so both are published). Each sample runs from the publish request to the moment both
 * gateways report the new version (`gateway_registry_supergraph_version`, which is set once the
 * version's signature verified and the gateway swapped its schema), read every 20 ms.
 */
async function publishToServedTable(publishes: number): Promise<BenchmarkTable> {
  const loadBefore = load();
  const databaseUrl = await freshBenchDatabase("reg_bench_served");
  const internalKey = await generateInternalSigningKey();
  const mint = await createInternalTokenMinter({ privateJwk: internalKey.privateJwk });
  const registry = await startRegistry({
    config: { port: 0, databaseUrl },
    authenticate: createInternalTokenVerifier({ audience: "registry", publicKeys: [internalKey.publicJwk] }),
    logger: createLogger("registry", "silent"),
  });
  const folder = await mkdtemp(join(tmpdir(), "bench-publish-to-served-"));
  const gateways: { base: string; process: BenchProcess }[] = [];
  const publish = async (name: string, schema: string): Promise<number> => {
    const response = await fetch(`${registry.url}/registry/subgraphs/publish`, {
      method: "POST",
      headers: { authorization: `Bearer ${await mint(publisher, "registry")}`, "content-type": "application/json" },
      body: JSON.stringify({ name, url: `http://${name}.internal:4000/graphql`, schema }),
    });
    const answer = (await response.json()) as { published?: boolean; unchanged?: boolean; version?: number };
    if (!response.ok || !answer.published || answer.unchanged)
      throw new Error(`publishing ${name} answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
    return answer.version as number;
  };
  const served = async (base: string) => Number(versionLine.exec(await (await fetch(`${base}/metrics`)).text())?.[1] ?? "0");
  try {
    const trpd = await readFile(new URL("subgraphs/trpd/trpd.graphql", root), "utf8");
    const withField = trpd.replace(/^(\s*counterpartyVasp: String!\s*)$/m, "$1\n  benchAddedField: String");
    if (withField === trpd) throw new Error("trpd.graphql no longer has TrpdTransfer.counterpartyVasp; pick another field for this benchmark.");
    await publish("aopd", await readFile(new URL("subgraphs/aopd/aopd.graphql", root), "utf8"));
    let version = await publish("trpd", trpd);
    for (const replica of ["a", "b"]) {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const child = await startProcess(
        "gateway/src/main.ts",
        {
          PORT: String(port),
          DEV_IDENTITY_PROVIDER: "true",
          PUBLIC_BASE_URL: base,
          INTERNAL_JWT_PRIVATE_JWK: JSON.stringify(internalKey.privateJwk),
          GATEWAY_REGISTRY_URL: registry.url,
          GATEWAY_SUPERGRAPH_CACHE_PATH: join(folder, `supergraph-${replica}.json`),
        },
        `${base}/health/live`,
      );
      gateways.push({ base, process: child });
    }
    const untilServed = async (target: number, started: number): Promise<number[]> =>
      Promise.all(
        gateways.map(async ({ base }) => {
          for (;;) {
            if ((await served(base)) >= target) return performance.now() - started;
            if (performance.now() - started > 60_000) throw new Error(`${base} did not serve version ${target} within 60 s`);
            await new Promise((resolve) => setTimeout(resolve, readEveryMs));
          }
        }),
      );
    await untilServed(version, performance.now());
    const publishMs: number[] = [];
    const firstMs: number[] = [];
    const bothMs: number[] = [];
    for (let index = 0; index < publishes; index += 1) {
      const started = performance.now();
      version = await publish("trpd", index % 2 === 0 ? withField : trpd);
      publishMs.push(performance.now() - started);
      const each = await untilServed(version, started);
      firstMs.push(Math.min(...each));
      bothMs.push(Math.max(...each));
    }
    const row = (label: string, values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return [label, values.length, ms(percentile(sorted, 50)), ms(percentile(sorted, 95)), ms(sorted[sorted.length - 1] ?? Number.NaN)];
    };
    return {
      title: "Schema registry: publish to served on two gateways",
      method: `The registry on PostgreSQL (127.0.0.1:5432) with aopd and trpd published; two gateway processes (\`gateway/src/main.ts\`) serving from it with the default poll interval (2 s) and verifying each version's ES256 signature; ${publishes} publishes of trpd over HTTP, alternating between its schema and one with a field added (each composed, checked, signed and appended). Each time runs from the publish request to the moment the gateways' \`gateway_registry_supergraph_version\` shows the new version (read every ${readEveryMs} ms per gateway). The poll interval dominates: a publish lands at a random point of each gateway's 2 s cycle. Load average (1, 5, 15 min) before: ${loadBefore}; after: ${load()}.`,
      columns: ["step", "publishes", "p50 ms", "p95 ms", "max ms"],
      rows: [
        row("publish answered (check, compose, sign, append)", publishMs),
        row("served by the first gateway", firstMs),
        row("served by both gateways", bothMs),
      ],
    };
  } finally {
    for (const { process: child } of gateways.reverse()) await child.stop();
    await registry.close();
    await rm(folder, { recursive: true, force: true });
  }
}

export const registryPublishToServedScenario: BenchmarkScenario = {
  name: "registry-publish-to-served",
  async run({ quick }) {
    return [await publishToServedTable(quick ? 4 : 20)];
  },
};

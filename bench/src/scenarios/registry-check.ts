import { readFile } from "node:fs/promises";
import { parse, Kind } from "graphql";
import { createInternalTokenMinter, createInternalTokenVerifier, generateInternalSigningKey, type Identity } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import { startRegistry, usageReporterClient } from "@compliance-graph/registry";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";
import { ms, percentile } from "../support/latency.js";

const root = new URL("../../../", import.meta.url);
const publisher: Identity = { subject: "bench-publisher", client: "bench-pipeline", roles: ["schema:publish"] };
const gateway: Identity = { subject: usageReporterClient, client: usageReporterClient, roles: [] };

/** Every `Type` and `Type.field` of an SDL's object types: what recorded operations select. */
function coordinatesOf(sdl: string): string[] {
  const coordinates: string[] = [];
  for (const definition of parse(sdl).definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    coordinates.push(definition.name.value);
    for (const field of definition.fields ?? []) coordinates.push(`${definition.name.value}.${field.name.value}`);
  }
  return coordinates;
}

/**
 * `check` with many recorded operations: the registry on PostgreSQL with aopd and trpd published,
 * the gateways' usage of `operations` distinct operations reported through `POST /usage`, then
 * `check` of a trpd candidate removing a field that recorded operations select (breaking, looked
 * up in usage) and of one adding a field (safe), each over HTTP as the command line calls it.
 */
async function checkTable(operations: number, runs: number): Promise<BenchmarkTable> {
  const databaseUrl = await freshBenchDatabase("reg_bench_check");
  const internalKey = await generateInternalSigningKey();
  const mint = await createInternalTokenMinter({ privateJwk: internalKey.privateJwk });
  const registry = await startRegistry({
    config: { port: 0, databaseUrl },
    authenticate: createInternalTokenVerifier({ audience: "registry", publicKeys: [internalKey.publicJwk] }),
    logger: createLogger("registry", "silent"),
  });
  const call = async (identity: Identity, path: string, body: unknown) => {
    const response = await fetch(`${registry.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${await mint(identity, "registry")}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
    return answer;
  };
  try {
    const aopd = await readFile(new URL("subgraphs/aopd/aopd.graphql", root), "utf8");
    const trpd = await readFile(new URL("subgraphs/trpd/trpd.graphql", root), "utf8");
    await call(publisher, "/registry/subgraphs/publish", { name: "aopd", url: "http://aopd:4001/graphql", schema: aopd });
    await call(publisher, "/registry/subgraphs/publish", { name: "trpd", url: "http://trpd:4002/graphql", schema: trpd });
    const pool = [...coordinatesOf(aopd), ...coordinatesOf(trpd)];
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
    const clients = ["officers-console", "partner-api", "reporting", "kyc-app"];
    const recordStarted = performance.now();
    for (let first = 0; first < operations; first += 1_000) {
      const reports = [];
      for (let index = first; index < Math.min(first + 1_000, operations); index += 1) {
        // Ten coordinates per operation, spread over the schema; one in a hundred selects the field removed below.
        const coordinates = Array.from({ length: 10 }, (_, offset) => pool[(index * 7 + offset * 13) % pool.length] as string);
        if (index % 100 === 0) coordinates.push("TrpdTransfer.counterpartyVasp");
        reports.push({
          operationHash: index.toString(16).padStart(64, "0"),
          client: clients[index % clients.length],
          hour,
          count: 1 + (index % 5),
          coordinates,
        });
      }
      await call(gateway, "/usage", { reports });
    }
    const recordSeconds = (performance.now() - recordStarted) / 1000;
    // The field and its description line.
    const breaking = trpd.replace(/^\s*("[^"\n]*"\s*\n)?\s*counterpartyVasp: String!\s*$/m, "");
    if (breaking === trpd) throw new Error("trpd.graphql no longer has TrpdTransfer.counterpartyVasp; pick another field for this benchmark.");
    const safe = trpd.replace(/^(\s*counterpartyVasp: String!\s*)$/m, "$1\n  benchAddedField: String");
    const samples: Record<string, number[]> = { breaking: [], safe: [] };
    let hit: unknown;
    for (let run = -2; run < runs; run += 1) {
      for (const [label, schema] of [
        ["breaking", breaking],
        ["safe", safe],
      ] as const) {
        const started = performance.now();
        const report = await call(publisher, "/registry/subgraphs/check", { name: "trpd", url: "http://trpd:4002/graphql", schema });
        if (run >= 0) samples[label]?.push(performance.now() - started);
        if (label === "breaking") hit = report.usage;
        if (label === "breaking" && (report.usage as unknown[]).length === 0)
          throw new Error(`The breaking candidate found no usage: ${JSON.stringify(report).slice(0, 500)}`);
      }
    }
    const row = (label: string, values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return [label, operations, ms(percentile(sorted, 50)), ms(percentile(sorted, 95))];
    };
    return {
      title: `Schema registry: check time with ${operations.toLocaleString("en")} recorded operations`,
      method: `The registry on PostgreSQL (127.0.0.1:5432) with aopd and trpd published; ${operations.toLocaleString("en")} distinct operations (10 or 11 coordinates each, 4 clients, one hour) reported through POST /usage in batches of 1,000 (${(operations / recordSeconds).toFixed(0)} reports/s); then ${runs} checks of each trpd candidate over HTTP after 2 warm-ups: one removing TrpdTransfer.counterpartyVasp (breaking; selected by 1 % of the operations: ${JSON.stringify(hit)}), one adding a field (safe). Each check composes both subgraphs, diffs the API schemas and looks the breaking coordinates up in usage.`,
      columns: ["candidate", "recorded operations", "check p50 ms", "check p95 ms"],
      rows: [row("removes a used field (breaking, usage looked up)", samples.breaking ?? []), row("adds a field (safe)", samples.safe ?? [])],
    };
  } finally {
    await registry.close();
  }
}

export const registryCheckScenario: BenchmarkScenario = {
  name: "registry-check",
  async run({ quick }) {
    return [await checkTable(quick ? 10_000 : 100_000, quick ? 5 : 20)];
  },
};

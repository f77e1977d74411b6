import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApolloGateway } from "@apollo/gateway";
import { assembleAopdSdl } from "@compliance-graph/aopd";
import { AssetRegistry } from "@compliance-graph/dti-assets";
import { composeSubgraphs, readSupergraphConfig } from "@compliance-graph/gateway";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { percentile } from "../support/latency.js";

/**
 * What the full DTI enum costs the schema: the aopd SDL and the supergraph are composed from the
 * registry's native assets alone (the enum as it was before the registry import) and from the
 * whole registry, and the gateway loads each supergraph as it does at start and on every reload.
 */
async function timed(runs: number, operation: () => Promise<unknown>): Promise<{ p50: number; max: number }> {
  await operation(); // warm-up: module initialisation and JIT are not what is measured
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await operation();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), max: samples.at(-1) ?? 0 };
}

async function schemaTable(runs: number): Promise<BenchmarkTable> {
  const full = AssetRegistry.load();
  const nativesOnly = new AssetRegistry(full.assets.filter((asset) => asset.standard === null));
  const config = await readSupergraphConfig(new URL("../../../supergraph.yaml", import.meta.url).pathname);
  const folder = await mkdtemp(join(tmpdir(), "cg-asset-schema-"));
  const rows: (string | number)[][] = [];
  try {
    for (const [label, registry] of [["natives only (the enum before the import)", nativesOnly], ["full registry", full]] as const) {
      const aopdFile = join(folder, `aopd-${registry.assets.length}.graphql`);
      const aopdSdl = assembleAopdSdl(registry);
      await writeFile(aopdFile, aopdSdl);
      const subgraphs = config.subgraphs.map((subgraph) => (subgraph.name === "aopd" ? { ...subgraph, schemaFile: aopdFile } : subgraph));
      const supergraphSdl = await composeSubgraphs(subgraphs);
      const composition = await timed(runs, () => composeSubgraphs(subgraphs));
      const load = await timed(runs, async () => {
        const gateway = new ApolloGateway({ supergraphSdl });
        await gateway.load();
        await gateway.stop();
      });
      rows.push([
        label,
        registry.assets.length,
        (aopdSdl.length / 1024).toFixed(1),
        (supergraphSdl.length / 1024).toFixed(1),
        composition.p50.toFixed(1),
        composition.max.toFixed(1),
        load.p50.toFixed(1),
        load.max.toFixed(1),
      ]);
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  return {
    title: "Schema size and composition time with the full DTI enum",
    method: `aopd's SDL assembled with each asset list, composed with trpd by @apollo/composition (as \`npm run compose\` and a gateway reading supergraph.yaml do), then loaded by @apollo/gateway (schema and query planner, as at start and on each hot reload); ${runs} runs each after one warm-up, one process.`,
    columns: ["AopdAsset values", "assets", "aopd SDL KiB", "supergraph KiB", "compose p50 ms", "compose max ms", "gateway load p50 ms", "gateway load max ms"],
    rows,
  };
}

export const assetSchemaScenario: BenchmarkScenario = {
  name: "asset-schema",
  async run({ quick }) {
    return [await schemaTable(quick ? 5 : 30)];
  },
};

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
interface Variant {
  label: string;
  assets: number;
  aopdSdl: string;
  supergraphSdl: string;
  compose: () => Promise<unknown>;
  load: () => Promise<unknown>;
  samples: { compose: number[]; load: number[] };
}

async function time(operation: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await operation();
  return performance.now() - started;
}

async function schemaTable(runs: number): Promise<BenchmarkTable> {
  const full = AssetRegistry.load();
  const nativesOnly = new AssetRegistry(full.assets.filter((asset) => asset.standard === null));
  const config = await readSupergraphConfig(new URL("../../../supergraph.yaml", import.meta.url).pathname);
  const folder = await mkdtemp(join(tmpdir(), "cg-asset-schema-"));
  try {
    const variants: Variant[] = [];
    for (const [label, registry] of [
      ["natives only (the enum before the import)", nativesOnly],
      ["full registry", full],
    ] as const) {
      const aopdFile = join(folder, `aopd-${registry.assets.length}.graphql`);
      const aopdSdl = assembleAopdSdl(registry);
      await writeFile(aopdFile, aopdSdl);
      const subgraphs = config.subgraphs.map((subgraph) => (subgraph.name === "aopd" ? { ...subgraph, schemaFile: aopdFile } : subgraph));
      const supergraphSdl = await composeSubgraphs(subgraphs);
      variants.push({
        label,
        assets: registry.assets.length,
        aopdSdl,
        supergraphSdl,
        compose: () => composeSubgraphs(subgraphs),
        load: async () => {
          const gateway = new ApolloGateway({ supergraphSdl });
          await gateway.load();
          await gateway.stop();
        },
        samples: { compose: [], load: [] },
      });
    }
    // Warm-up, then the variants in turn, so that JIT warm-up and machine noise fall on both alike.
    for (let i = 0; i < 3; i += 1) for (const variant of variants) await variant.compose().then(variant.load);
    for (let i = 0; i < runs; i += 1) {
      for (const variant of variants) {
        variant.samples.compose.push(await time(variant.compose));
        variant.samples.load.push(await time(variant.load));
      }
    }
    const p50 = (samples: number[]) =>
      percentile(
        [...samples].sort((a, b) => a - b),
        50,
      ).toFixed(1);
    const p95 = (samples: number[]) =>
      percentile(
        [...samples].sort((a, b) => a - b),
        95,
      ).toFixed(1);
    return {
      title: "Schema size and composition time with the full DTI enum",
      method: `aopd's SDL assembled with each asset list, composed with trpd by @apollo/composition (as \`npm run compose\` and a gateway reading supergraph.yaml do), then loaded by @apollo/gateway (schema and query planner, as at start and on each hot reload); ${runs} runs of each, taken in turn after 3 warm-ups, one process.`,
      columns: [
        "AopdAsset values",
        "assets",
        "aopd SDL KiB",
        "supergraph KiB",
        "compose p50 ms",
        "compose p95 ms",
        "gateway load p50 ms",
        "gateway load p95 ms",
      ],
      rows: variants.map((variant) => [
        variant.label,
        variant.assets,
        (variant.aopdSdl.length / 1024).toFixed(1),
        (variant.supergraphSdl.length / 1024).toFixed(1),
        p50(variant.samples.compose),
        p95(variant.samples.compose),
        p50(variant.samples.load),
        p95(variant.samples.load),
      ]),
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

export const assetSchemaScenario: BenchmarkScenario = {
  name: "asset-schema",
  async run({ quick }) {
    return [await schemaTable(quick ? 5 : 30)];
  },
};

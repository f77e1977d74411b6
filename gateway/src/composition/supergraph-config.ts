import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parse as parseYaml } from "yaml";

export interface SubgraphConfig {
  name: string;
  routingUrl: string;
  /** Absolute path of the subgraph's SDL file. */
  schemaFile: string;
}

export interface SupergraphConfig {
  /** Absolute path of the config file itself. */
  path: string;
  federationVersion: string | undefined;
  subgraphs: SubgraphConfig[];
}

/**
 * Reads a `supergraph.yaml` in rover's format. Only `schema.file` is supported as a schema source:
 * composition here is reproducible from the repository alone, never from a running subgraph.
 * Relative schema paths resolve against the config file's folder, as rover does.
 */
export async function readSupergraphConfig(configPath: string): Promise<SupergraphConfig> {
  const path = resolve(configPath);
  const raw = parseYaml(await readFile(path, "utf8")) as {
    federation_version?: unknown;
    subgraphs?: Record<string, { routing_url?: unknown; schema?: { file?: unknown } }>;
  } | null;
  const entries = Object.entries(raw?.subgraphs ?? {});
  if (entries.length === 0) throw new Error(`${path}: no subgraphs are configured.`);
  const subgraphs = entries.map(([name, subgraph]): SubgraphConfig => {
    if (typeof subgraph?.routing_url !== "string") throw new Error(`${path}: subgraphs.${name}.routing_url must be a URL.`);
    if (typeof subgraph.schema?.file !== "string") throw new Error(`${path}: subgraphs.${name}.schema.file must name an SDL file.`);
    return { name, routingUrl: subgraph.routing_url, schemaFile: resolve(dirname(path), subgraph.schema.file) };
  });
  const federationVersion = raw?.federation_version === undefined ? undefined : String(raw.federation_version);
  return { path, federationVersion, subgraphs };
}

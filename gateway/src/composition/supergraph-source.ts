import { unwatchFile, watchFile } from "node:fs";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { SupergraphSdlHook } from "@apollo/gateway";
import { Supergraph } from "@apollo/federation-internals";
import type { Logger } from "@compliance-graph/process-shell";
import { composeSubgraphs } from "./compose-supergraph.js";
import { readSupergraphConfig } from "./supergraph-config.js";

export interface SupergraphSourceOptions {
  /**
   * `SUPERGRAPH_PATH`: the composed supergraph SDL (`supergraph.graphql`), or a `supergraph.yaml`
   * to compose in-process (development: edit a subgraph's schema, the gateway recomposes).
   * @default "supergraph.graphql"
   */
  path: string;
  /** How often the files are checked for changes. @default 1_000 // 1 second */
  pollIntervalMs?: number;
  logger: Logger;
}

export interface SubgraphEndpoint {
  name: string;
  url: string;
}

export interface SupergraphSource {
  /** For `new ApolloGateway({ supergraphSdl })`: never Apollo's managed (Uplink) mode. */
  hook: SupergraphSdlHook;
  /** The subgraphs of the supergraph being served. */
  subgraphs(): SubgraphEndpoint[];
  /** Checks the source now instead of at the next poll; resolves when done. */
  reload(): Promise<void>;
  /** The parts it depends on that fail while the gateway serves what it has (readiness `degraded`). */
  degraded(): string[];
}

/**
 * Serves the supergraph from a file and hot-reloads it: when the file (or, for a `.yaml` config,
 * any subgraph schema it names) changes, the new supergraph is built and validated first, and only
 * a valid one replaces the running schema. A file that does not parse or compose is logged and
 * the gateway keeps serving the previous supergraph. Polling (`fs.watchFile`) rather than
 * `fs.watch` notices editors' and deploy tools' rename-over-the-file replacements too.
 */
export function createSupergraphSource(options: SupergraphSourceOptions): SupergraphSource {
  const path = resolve(options.path);
  const composes = /\.ya?ml$/i.test(path);
  const { logger } = options;
  let endpoints: SubgraphEndpoint[] = [];
  let reload: () => Promise<void> = async () => {};

  const load = async (): Promise<{ sdl: string; files: string[] }> => {
    if (!composes) return { sdl: await readFile(path, "utf8"), files: [path] };
    const config = await readSupergraphConfig(path);
    return { sdl: await composeSubgraphs(config.subgraphs), files: [path, ...config.subgraphs.map((subgraph) => subgraph.schemaFile)] };
  };
  const validate = (sdl: string): SubgraphEndpoint[] =>
    Supergraph.build(sdl)
      .subgraphsMetadata()
      .map(({ name, url }) => ({ name, url }));

  const hook: SupergraphSdlHook = async ({ update }) => {
    const initial = await load();
    endpoints = validate(initial.sdl);
    let current = initial.sdl;
    let running: Promise<void> | undefined;
    reload = () => {
      running ??= (async () => {
        try {
          const next = await load();
          if (next.sdl === current) return;
          const nextEndpoints = validate(next.sdl);
          update(next.sdl);
          current = next.sdl;
          endpoints = nextEndpoints;
          logger.info({ path }, "supergraph reloaded");
        } catch (error) {
          logger.error({ err: error, path }, "the new supergraph is invalid; keeping the previous one");
        } finally {
          running = undefined;
        }
      })();
      return running;
    };
    const onChange = () => void reload();
    for (const file of initial.files) watchFile(file, { interval: options.pollIntervalMs ?? 1_000 }, onChange);
    return {
      supergraphSdl: initial.sdl,
      cleanup: async () => {
        for (const file of initial.files) unwatchFile(file, onChange);
      },
    };
  };

  return { hook, subgraphs: () => endpoints, reload: () => reload(), degraded: () => [] };
}

import { readFile } from "node:fs/promises";
import { composeServices } from "@apollo/composition";
import { parse } from "graphql";
import { readSupergraphConfig, type SubgraphConfig } from "./supergraph-config.js";

/** Composition failed; `errors` holds composition's own messages, one per problem. */
export class CompositionError extends Error {
  readonly code = "COMPOSITION_FAILED";

  constructor(readonly errors: string[]) {
    super(`The subgraphs do not compose:\n${errors.map((error) => `- ${error}`).join("\n")}`);
    this.name = "CompositionError";
  }
}

/** Composes the given subgraphs (their SDL read from disk now) into the supergraph SDL. */
export async function composeSubgraphs(subgraphs: readonly SubgraphConfig[]): Promise<string> {
  const services = await Promise.all(
    subgraphs.map(async (subgraph) => {
      const sdl = await readFile(subgraph.schemaFile, "utf8");
      let typeDefs;
      try {
        typeDefs = parse(sdl);
      } catch (error) {
        throw new CompositionError([`${subgraph.name} (${subgraph.schemaFile}): ${(error as Error).message}`]);
      }
      return { name: subgraph.name, url: subgraph.routingUrl, typeDefs };
    }),
  );
  const result = composeServices(services);
  if (result.errors) throw new CompositionError(result.errors.map((error) => error.message));
  return result.supergraphSdl;
}

/**
 * Reads `supergraph.yaml` (rover's format) and composes its subgraphs with `@apollo/composition`,
 * as `rover supergraph compose` would. Returns the supergraph SDL; writing it is the caller's part.
 */
export async function composeSupergraph(configPath: string): Promise<string> {
  const config = await readSupergraphConfig(configPath);
  return composeSubgraphs(config.subgraphs);
}

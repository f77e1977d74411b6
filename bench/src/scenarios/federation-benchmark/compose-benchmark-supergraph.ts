import { composeServices } from "@apollo/composition";
import { parse } from "graphql";
import { benchmarkSubgraphNames, benchmarkSubgraphSdl, type BenchmarkSubgraphName } from "./benchmark-subgraphs.js";

/** Where the committed `supergraph.graphql` routes each subgraph: `serve-benchmark-subgraphs.ts` on its default port. */
export const defaultBenchmarkSubgraphUrl = (name: BenchmarkSubgraphName) => `http://127.0.0.1:4200/${name}`;

/**
 * Composes the four subgraphs' `.graphql` files with `@apollo/composition`, each routed to
 * `url(name)`. `supergraph.graphql` beside this file is this with `defaultBenchmarkSubgraphUrl`
 * (a test keeps it current), for trying other gateways against `serve-benchmark-subgraphs.ts`.
 */
export function composeBenchmarkSupergraph(url: (name: BenchmarkSubgraphName) => string = defaultBenchmarkSubgraphUrl): string {
  const result = composeServices(benchmarkSubgraphNames.map((name) => ({ name, url: url(name), typeDefs: parse(benchmarkSubgraphSdl(name)) })));
  if (result.errors) throw new Error(`The benchmark subgraphs do not compose: ${result.errors.map((error) => error.message).join("; ")}`);
  return result.supergraphSdl;
}

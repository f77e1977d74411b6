import { composeServices } from "@apollo/composition";
import { Supergraph } from "@apollo/federation-internals";
import { parse, type DocumentNode, type GraphQLError, type GraphQLSchema } from "graphql";

/** A subgraph as composition takes it. */
export interface SubgraphSource {
  name: string;
  url: string;
  schema: string;
}

/** One reason the subgraphs do not compose, with where it is when composition says so. */
export interface CompositionProblem {
  message: string;
  /** Composition's own code (`FIELD_TYPE_MISMATCH`, ...), or `INVALID_GRAPHQL` for SDL that does not parse. */
  code: string;
  /** The subgraphs it names. */
  subgraphs: string[];
  /** The schema coordinates it names (`Type` or `Type.field`). */
  coordinates: string[];
}

export type Composition = { ok: true; supergraph: string } | { ok: false; problems: CompositionProblem[] };

/**
 * Composes subgraphs with `@apollo/composition`, as `rover supergraph compose` and
 * `npm run compose` do, and says where each problem is: composition writes the subgraph in
 * brackets or quotes (`[aopd]`, `subgraph "aopd"`) and the coordinate in quotes (`"Query.x"`).
 */
export function composeSubgraphs(subgraphs: readonly SubgraphSource[]): Composition {
  const services: { name: string; url: string; typeDefs: DocumentNode }[] = [];
  const problems: CompositionProblem[] = [];
  for (const subgraph of subgraphs) {
    try {
      services.push({ name: subgraph.name, url: subgraph.url, typeDefs: parse(subgraph.schema) });
    } catch (error) {
      problems.push({ message: `[${subgraph.name}] ${(error as Error).message}`, code: "INVALID_GRAPHQL", subgraphs: [subgraph.name], coordinates: [] });
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  const result = composeServices(services);
  if (result.errors)
    return {
      ok: false,
      problems: result.errors.map((error) =>
        problemOf(
          error,
          subgraphs.map(({ name }) => name),
        ),
      ),
    };
  return { ok: true, supergraph: result.supergraphSdl };
}

function problemOf(error: GraphQLError, names: readonly string[]): CompositionProblem {
  const message = error.message;
  const named = new Set<string>();
  for (const match of message.matchAll(/\[([a-z][a-z0-9_]*)\]|subgraphs? "([a-z][a-z0-9_]*)"|"([a-z][a-z0-9_]*)"/g)) {
    const name = match[1] ?? match[2] ?? match[3];
    if (name && names.includes(name)) named.add(name);
  }
  const coordinates = new Set<string>();
  // A field or argument is dotted; a bare name is a coordinate only where composition calls it a type ("has type \"Int\"" is not one).
  for (const match of message.matchAll(
    /"([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*){1,2})(?:\([^)]*\))?"|(?:^|\. |: )(?:Type|Interface|Enum|Union|Input (?:object )?type|Object type) "([A-Za-z_][A-Za-z0-9_]*)"/g,
  )) {
    const coordinate = match[1] ?? match[2];
    if (coordinate) coordinates.add(coordinate);
  }
  const code = typeof error.extensions?.code === "string" ? error.extensions.code : "COMPOSITION_FAILED";
  return { message, code, subgraphs: [...named], coordinates: [...coordinates] };
}

/** The schema clients see of a supergraph: what a change is classified against. */
export function apiSchemaOf(supergraph: string): GraphQLSchema {
  return Supergraph.build(supergraph).apiSchema().toGraphQLJSSchema();
}

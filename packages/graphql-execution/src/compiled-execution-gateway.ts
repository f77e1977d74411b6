import type { ApolloServerOptionsWithGateway, BaseContext } from "@apollo/server";
import { execute, GraphQLError, printSchema, type DocumentNode, type ExecutionResult, type GraphQLSchema } from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";
import { resolvedOperationOf } from "./operation-check.js";

type GatewayInterface = ApolloServerOptionsWithGateway<BaseContext>["gateway"];
type GatewayExecutor = NonNullable<Awaited<ReturnType<GatewayInterface["load"]>>["executor"]>;

export interface CompiledExecutionOptions {
  /**
   * Runs of a document with graphql-js before it is compiled: a document seen once (an ad hoc
   * query, a prober's variations) never costs a compilation. @default 1
   */
  interpretedRuns?: number;
}

interface DocumentPlan {
  runs: number;
  /** Per operation name ("" for the only one); null when graphql-jit cannot compile it. */
  compiled: Map<string, CompiledQuery | null>;
}

/**
 * Executes a subgraph's queries with graphql-jit instead of graphql-js, through Apollo Server's
 * `gateway` door (its one public place for a custom executor): Apollo Server still parses,
 * validates, caches documents, runs every plugin (cost, input values, metrics, tracing) and
 * formats and masks every error; only the walk over the result changes.
 *
 * Why: graphql-js interprets the operation anew for every object of every list (a page of 50
 * proofs of 8 fields is 400 field executions with argument, type and path bookkeeping each);
 * graphql-jit turns the validated operation into one function for exactly that selection, about
 * three times faster on a page of proofs. Each document is compiled once and kept as long as
 * Apollo Server's document cache keeps the document (a WeakMap keyed by the parsed document).
 *
 * Where graphql-js and graphql-jit could answer differently, graphql-js answers, so clients see
 * the same thing: mutations (run serially by graphql-js, rare, and never on a hot path), a
 * document until its second run, a document graphql-jit refuses to compile, and any request whose
 * variables do not coerce (graphql-js's messages for those are part of the API's errors).
 * graphql-jit's errors are rebuilt as graphql-js `GraphQLError`s with the same message, path,
 * locations, original error and extensions, which is what the masking in `formatError` reads.
 *
 * Every request, the thousandth run of a document as much as the first, goes through Apollo
 * Server's whole pipeline: a plugin added to the server runs for every operation, compiled or not.
 * (A lane that answered repeated queries outside that pipeline, with a hand-kept copy of the
 * plugins' checks, was measured and removed: docs/benchmarks.md, "The compiled lane".)
 */
export function compiledExecutionGateway(schema: GraphQLSchema, options: CompiledExecutionOptions = {}): GatewayInterface {
  const interpretedRuns = options.interpretedRuns ?? 1;
  const plans = new WeakMap<DocumentNode, DocumentPlan>();

  const interpret = (document: DocumentNode, operationName: string | null, variables: Record<string, unknown> | undefined, context: unknown) =>
    execute({ schema, document, operationName, variableValues: variables, contextValue: context }) as Promise<ExecutionResult> | ExecutionResult;

  const compiledFor = (document: DocumentNode, operationName: string | null): CompiledQuery | null | undefined => {
    let plan = plans.get(document);
    if (!plan) {
      plan = { runs: 0, compiled: new Map() };
      plans.set(document, plan);
    }
    plan.runs += 1;
    if (plan.runs <= interpretedRuns) return undefined;
    const key = operationName ?? "";
    if (!plan.compiled.has(key)) {
      const compiled = compileQuery(schema, document, operationName ?? undefined, { disablingCapturingStackErrors: true });
      plan.compiled.set(key, isCompiledQuery(compiled) ? compiled : null);
    }
    return plan.compiled.get(key);
  };

  const executor: GatewayExecutor = async (requestContext) => {
    const { document, operation, operationName, request, context } = requestContext;
    const variables = request.variables;
    if (operation.operation !== "query") return interpret(document, operationName, variables, context);
    const compiled = compiledFor(document, operationName);
    if (!compiled) return interpret(document, operationName, variables, context);
    // graphql-jit coerces variables itself, with messages of its own: graphql-js answers a request
    // whose variables do not coerce. The coercion is the one the cost check already made.
    const resolved = resolvedOperationOf({ schema, document, operation, request });
    if (resolved.coercedVariables().errors) return interpret(document, operationName, variables, context);
    const result = await compiled.query(undefined, context, resolved.variables);
    // graphql-jit refuses some variables graphql-js accepts (an input object's field left to its
    // default value): it then answers before running anything, without `data`. graphql-js already
    // coerced these variables, so the interpreter answers instead.
    if (!("data" in result)) return interpret(document, operationName, variables, context);
    if (!result.errors || result.errors.length === 0) return { data: result.data };
    // As graphql-js builds it: errors first.
    return { errors: result.errors.map(asGraphQLJsError), data: result.data };
  };

  return {
    onSchemaLoadOrUpdate: (callback) => {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => {};
    },
    load: async () => ({ executor }),
    stop: async () => {},
  };
}

/** graphql-jit's errors only look like graphql-js's (no `extensions` object when empty, no `toJSON` of their own). */
function asGraphQLJsError(error: GraphQLError): GraphQLError {
  const rebuilt = new GraphQLError(error.message, {
    ...(error.path ? { path: error.path } : {}),
    ...(error.originalError ? { originalError: error.originalError } : {}),
    ...(error.extensions ? { extensions: error.extensions } : {}),
  });
  if (error.locations && error.locations.length > 0) Object.assign(rebuilt, { locations: error.locations });
  return rebuilt;
}

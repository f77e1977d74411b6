import type { ApolloGateway, Experimental_DidResolveQueryPlanCallback, GraphQLDataSource } from "@apollo/gateway";
import { operationFromDocument, type Operation, type Schema, type SelectionSet } from "@apollo/federation-internals";
import type { QueryPlan } from "@apollo/query-planner";
import type { GatewayExecutionResult, GatewayGraphQLRequestContext, GatewayInterface } from "@apollo/server-gateway-interface";
import { trace } from "@opentelemetry/api";
import type { Counter } from "prom-client";
import { getVariableValues, GraphQLError, Kind, type DocumentNode, type GraphQLSchema, type VariableDefinitionNode } from "graphql";
import { computeResponse } from "./apollo-gateway-internals.js";
import { conditionVariableNames, ResponseWriter } from "./response-writer.js";
import { runQueryPlan } from "./run-query-plan.js";
import { SerializedData } from "./serialized-data.js";

type DidResolveQueryPlan = Parameters<Experimental_DidResolveQueryPlanCallback>[0];

/** A query's plan with everything its executions need, made once and kept while Apollo Server keeps the parsed document. */
interface CompiledPlan {
  generation: number;
  plan: QueryPlan;
  operation: Operation;
  apiSchema: GraphQLSchema;
  supergraphSchema: GraphQLSchema;
  variableDefinitions: readonly VariableDefinitionNode[] | undefined;
  services: Record<string, GraphQLDataSource>;
  conditionNames: string[];
  writers: Map<string, ResponseWriter>;
}

export interface PlanExecutingGateway {
  /** What Apollo Server is given as its `gateway`. */
  gateway: GatewayInterface;
  /** Pass to `ApolloGateway`'s `experimental_didResolveQueryPlan`: keeps each plan Apollo makes. */
  didResolveQueryPlan(options: DidResolveQueryPlan): void;
}

/** Most writers kept per plan (one per set of `@skip`/`@include` values seen). */
const maxWritersPerPlan = 16;

/**
 * `@apollo/gateway` keeps the supergraph, the subgraphs' data sources and query planning (with its
 * plan cache); the execution of a query's plan and the shaping of its answer are ours. Why:
 * shaping a large answer was a third of the gateway's CPU (`computeResponse` builds a second
 * object tree field by field, with directive and type lookups for every field of every row) and
 * serialising it another tenth; here the plan's fetches run as `executeQueryPlan` runs them
 * (run-query-plan.ts) and the answer is written as JSON in one walk (response-writer.ts).
 *
 * The first request of a document goes through Apollo's executor, which plans it; the plan is kept
 * beside the parsed document (`didResolveQueryPlan`), with the operation and writers compiled for
 * it, and later requests of that document run it here. Answers are byte for byte Apollo's: one
 * that has any error (a fetch failing, a subgraph's errors, a null where the schema forbids one)
 * is shaped by Apollo's own `computeResponse`, and a differential test compares both over the
 * benchmark's queries, the project's own and generated ones with failing subgraphs
 * (test/gateway/plan-execution-differential.test.ts). Left to Apollo's executor altogether:
 * mutations, introspection, requests whose trace is recorded (for Apollo's spans), and anything
 * planned before the current supergraph.
 */
export function createPlanExecutingGateway(apolloGateway: ApolloGateway, executions?: Counter<"executor">): PlanExecutingGateway {
  let generation = 0;
  let currentApiSchema: GraphQLSchema | undefined;
  let plans = new WeakMap<DocumentNode, Map<string, CompiledPlan>>();
  // The supergraph as Apollo holds it: its API schema in federation-internals' model (what
  // `computeResponse` shapes against) and the supergraph schema (what `requires` are read against).
  const internals = apolloGateway as unknown as { apiSchema?: Schema; supergraphSchema?: GraphQLSchema };

  const didResolveQueryPlan = ({ queryPlan, serviceMap, requestContext, operationContext }: DidResolveQueryPlan) => {
    const { document, request } = requestContext;
    if (operationContext.operation.operation !== "query" || operationContext.schema !== currentApiSchema) return;
    const apiSchema = internals.apiSchema;
    const supergraphSchema = internals.supergraphSchema;
    if (!apiSchema || !supergraphSchema || (queryPlan.node && !executable(queryPlan.node))) return;
    const key = request.operationName ?? "";
    let byName = plans.get(document);
    if (byName?.has(key)) return;
    const operation = operationFromDocument(
      apiSchema,
      { kind: Kind.DOCUMENT, definitions: [operationContext.operation, ...Object.values(operationContext.fragments)] },
      { validate: false },
    );
    if (hasIntrospection(operation.selectionSet)) return;
    if (!byName) plans.set(document, (byName = new Map()));
    byName.set(key, {
      generation,
      plan: queryPlan,
      operation,
      apiSchema: operationContext.schema,
      supergraphSchema,
      variableDefinitions: operationContext.operation.variableDefinitions,
      services: { ...serviceMap },
      conditionNames: conditionVariableNames(operation),
      writers: new Map(),
    });
  };

  const execute = async (compiled: CompiledPlan, requestContext: GatewayGraphQLRequestContext): Promise<GatewayExecutionResult> => {
    // As ApolloGateway's executor: variables that do not coerce are refused before any fetch.
    if (compiled.variableDefinitions) {
      const { errors } = getVariableValues(compiled.apiSchema, compiled.variableDefinitions, requestContext.request.variables || {});
      if (errors) return { errors };
    }
    const data = Object.create(null) as Record<string, unknown>;
    const run = {
      services: compiled.services,
      requestContext,
      supergraphSchema: compiled.supergraphSchema,
      variableDefinitions: compiled.operation.variableDefinitions,
      errors: [] as Error[],
    };
    if (compiled.plan.node) await runQueryPlan(run, compiled.plan.node as Parameters<typeof runQueryPlan>[1], data);
    const variables = requestContext.request.variables;
    if (run.errors.length === 0) {
      const json = writerFor(compiled, variables).write(data);
      if (json !== undefined) return { data: new SerializedData(json) as unknown as Record<string, unknown> };
    }
    return shapeAsApollo(compiled.operation, variables, data, run.errors, requestContext);
  };

  const gateway: GatewayInterface = {
    onSchemaLoadOrUpdate(callback) {
      return apolloGateway.onSchemaLoadOrUpdate((schemaContext) => {
        callback(schemaContext);
      });
    },
    async load(options) {
      const { executor } = await apolloGateway.load(options);
      return {
        executor: async (requestContext) => {
          const compiled = plans.get(requestContext.document)?.get(requestContext.request.operationName ?? "");
          if (!compiled || compiled.generation !== generation || trace.getActiveSpan()?.isRecording()) {
            executions?.inc({ executor: "apollo" });
            return executor(requestContext);
          }
          executions?.inc({ executor: "gateway" });
          return execute(compiled, requestContext);
        },
      };
    },
    stop: () => apolloGateway.stop(),
  };
  // Every new supergraph starts anew: plans of the old one finish, none is kept.
  apolloGateway.onSchemaLoadOrUpdate(({ apiSchema }) => {
    generation += 1;
    currentApiSchema = apiSchema;
    plans = new WeakMap();
  });
  return { gateway, didResolveQueryPlan };
}

function writerFor(compiled: CompiledPlan, variables: Record<string, unknown> | undefined): ResponseWriter {
  const { conditionNames, writers, operation } = compiled;
  let signature = "";
  let values: Record<string, unknown> = {};
  if (conditionNames.length > 0) {
    values = { ...operation.collectDefaultedVariableValues(), ...variables };
    signature = conditionNames.map((name) => String(values[name])).join(",");
  }
  let writer = writers.get(signature);
  if (!writer) {
    writer = new ResponseWriter(operation, values);
    if (writers.size < maxWritersPerPlan) writers.set(signature, writer);
  }
  return writer;
}

/** The end of `executeQueryPlan` (its post-processing), for answers the writer leaves to Apollo. */
function shapeAsApollo(
  operation: Operation,
  variables: Record<string, unknown> | undefined,
  input: Record<string, unknown>,
  errors: Error[],
  requestContext: GatewayGraphQLRequestContext,
): GatewayExecutionResult {
  let data: Record<string, unknown> | null | undefined;
  try {
    let postProcessingErrors: GraphQLError[];
    ({ data, errors: postProcessingErrors } = computeResponse({
      operation,
      variables,
      input,
      introspectionHandling: () => {
        throw new Error("introspection is left to Apollo's executor");
      },
    }));
    if (errors.length === 0 && postProcessingErrors.length > 0) return { extensions: { valueCompletion: postProcessingErrors }, data };
  } catch (error) {
    if (error instanceof GraphQLError) return { errors: [error] };
    if (error instanceof Error) return { errors: [new GraphQLError(error.message, { originalError: error })] };
    (requestContext.logger || console).error(`Unexpected error during query plan execution: ${String(error)}`);
    return { errors: [new GraphQLError("Unexpected error during query plan execution")] };
  }
  return errors.length === 0 ? { data } : { errors: errors as GraphQLError[], data };
}

/** Plans of queries without @defer (and so without Defer nodes) or subscriptions. */
function executable(node: NonNullable<QueryPlan["node"]>): boolean {
  switch (node.kind) {
    case "Fetch":
      return true;
    case "Sequence":
    case "Parallel":
      return node.nodes.every(executable);
    case "Flatten":
      return executable(node.node);
    case "Condition":
      return (!node.ifClause || executable(node.ifClause)) && (!node.elseClause || executable(node.elseClause));
    default:
      return false;
  }
}

function hasIntrospection(selectionSet: SelectionSet): boolean {
  return selectionSet
    .selections()
    .some(
      (selection) =>
        (selection.kind === "FieldSelection" && selection.element.definition.isSchemaIntrospectionField()) ||
        (selection.selectionSet !== undefined && hasIntrospection(selection.selectionSet)),
    );
}

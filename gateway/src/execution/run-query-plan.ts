import type { GraphQLDataSource } from "@apollo/gateway";
import { errorCodeDef, ERRORS, type VariableDefinitions } from "@apollo/federation-internals";
import { evaluateCondition, type FetchNode, type PlanNode, type QueryPlanSelectionNode, type ResponsePath } from "@apollo/query-planner";
import type { GatewayGraphQLRequestContext } from "@apollo/server-gateway-interface";
import { GraphQLError, type GraphQLErrorOptions, type GraphQLFormattedError, type GraphQLSchema } from "graphql";
import { applyRewrites, deepMerge, generateHydratedPaths, getOwn, GraphQLDataSourceRequestKind, hasOwn, isObjectOfType } from "./apollo-gateway-internals.js";

type ResultMap = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- subgraph data, as @apollo/gateway types it

interface Cursor {
  path: ResponsePath;
  data: ResultMap | ResultMap[];
  fullResult: ResultMap;
}

export interface PlanRun {
  services: Record<string, GraphQLDataSource>;
  requestContext: GatewayGraphQLRequestContext;
  supergraphSchema: GraphQLSchema;
  /** The operation's variables as the plan's conditions read them (`Operation.variableDefinitions`). */
  variableDefinitions: VariableDefinitions;
  /** The fetches' errors, in the order `executeQueryPlan` records them. */
  errors: Error[];
}

/**
 * Runs a query plan's fetches and merges their data into one tree, as `executeQueryPlan` of
 * `@apollo/gateway` 2.14 does (executeQueryPlan.ts, `executeNode` and `executeFetch`), without its
 * trace nodes and spans: the same order of fetches, the same variables and representations, the
 * same merge (Apollo's own `deepMerge` and rewrites), the same errors with the same paths. What
 * it leaves out is only what this gateway never uses: Studio traces (`ftv1`), which need a
 * reporting key, and `@defer`, which the gateway does not plan.
 */
export async function runQueryPlan(run: PlanRun, node: PlanNode, data: ResultMap): Promise<void> {
  await executeNode(run, node, { path: [], data, fullResult: data });
}

async function executeNode(run: PlanRun, node: PlanNode, cursor: Cursor | undefined): Promise<void> {
  if (!cursor) return;
  switch (node.kind) {
    case "Sequence":
      for (const child of node.nodes) await executeNode(run, child, cursor);
      return;
    case "Parallel":
      await Promise.all(node.nodes.map((child) => executeNode(run, child, cursor)));
      return;
    case "Flatten":
      await executeNode(run, node.node, moveIntoCursor(cursor, node.path));
      return;
    case "Fetch":
      try {
        await executeFetch(run, node, cursor);
      } catch (error) {
        run.errors.push(error as Error);
      }
      return;
    case "Condition": {
      const branch = evaluateCondition(node, run.variableDefinitions, run.requestContext.request.variables) ? node.ifClause : node.elseClause;
      if (branch) await executeNode(run, branch, cursor);
      return;
    }
    default:
      throw new Error(`The gateway cannot execute a ${node.kind} plan node.`);
  }
}

async function executeFetch(run: PlanRun, fetch: FetchNode, cursor: Cursor): Promise<void> {
  const service = run.services[fetch.serviceName];
  if (!service) throw new Error(`Couldn't find service with name "${fetch.serviceName}"`);
  const entities: ResultMap[] = Array.isArray(cursor.data) ? cursor.data.filter((entity) => entity !== null && entity !== undefined) : [cursor.data];
  if (entities.length < 1) return;

  const variables = Object.create(null) as ResultMap;
  const provided = run.requestContext.request.variables;
  for (const name of fetch.variableUsages ?? []) {
    if (provided && hasOwn(provided, name) && typeof provided[name] !== "undefined") variables[name] = provided[name];
  }

  if (!fetch.requires) {
    const received = await sendOperation(run, service, fetch, cursor, variables);
    if (received) applyRewrites(run.supergraphSchema, fetch.outputRewrites, received);
    for (const entity of entities) deepMerge(entity, received);
    return;
  }

  const representations: ResultMap[] = [];
  const representationToEntity: number[] = [];
  entities.forEach((entity, index) => {
    const representation = executeSelectionSet(run.supergraphSchema, entity, fetch.requires!);
    if (representation && representation.__typename) {
      applyRewrites(run.supergraphSchema, fetch.inputRewrites, representation);
      representations.push(representation);
      representationToEntity.push(index);
    }
  });
  if (representations.length < 1) return;
  if ("representations" in variables) throw new Error(`Variables cannot contain key "representations"`);

  const received = await sendOperation(run, service, fetch, cursor, { ...variables, representations });
  if (!received) return;
  if (!(received._entities && Array.isArray(received._entities))) throw new Error(`Expected "data._entities" in response to be an array`);
  const receivedEntities = received._entities as ResultMap[];
  if (receivedEntities.length !== representations.length) throw new Error(`Expected "data._entities" to contain ${representations.length} elements`);
  for (let i = 0; i < entities.length; i += 1) {
    const receivedEntity = receivedEntities[i];
    const existingEntity = entities[representationToEntity[i]!]!;
    if (receivedEntity && !receivedEntity.__typename) receivedEntity.__typename = existingEntity.__typename;
    applyRewrites(run.supergraphSchema, fetch.outputRewrites, receivedEntity!);
    deepMerge(entities[representationToEntity[i]!], receivedEntity);
  }
}

async function sendOperation(
  run: PlanRun,
  service: GraphQLDataSource,
  fetch: FetchNode,
  cursor: Cursor,
  variables: ResultMap,
): Promise<ResultMap | null | undefined> {
  const { requestContext } = run;
  const response = await service.process({
    kind: GraphQLDataSourceRequestKind.INCOMING_OPERATION,
    request: { query: fetch.operation, variables, operationName: fetch.operationName },
    incomingRequestContext: requestContext,
    context: requestContext.context,
    document: fetch.operationDocumentNode,
    pathInIncomingRequest: cursor.path,
  });
  if (response.errors) {
    const errorPath = lazyErrorPath(fetch, cursor);
    run.errors.push(...response.errors.map((error) => downstreamServiceError(error, fetch.serviceName, errorPath)));
    if (!response.extensions?.ftv1) {
      const paths = response.errors.map((error) => ({ subgraph: fetch.serviceName, path: error.path }));
      if (requestContext.metrics.nonFtv1ErrorPaths) requestContext.metrics.nonFtv1ErrorPaths.push(...paths);
      else requestContext.metrics.nonFtv1ErrorPaths = paths;
    }
  }
  return response.data as ResultMap | null | undefined;
}

type ErrorPath = (path: GraphQLErrorOptions["path"]) => GraphQLErrorOptions["path"];

function lazyErrorPath(fetch: FetchNode, cursor: Cursor): ErrorPath {
  let hydrated: ResponsePath[] | undefined;
  return (errorPath) => {
    if (fetch.requires && typeof errorPath?.[1] === "number") {
      if (!hydrated) {
        hydrated = [];
        generateHydratedPaths([], cursor.path, cursor.fullResult, hydrated);
      }
      return [...(hydrated[errorPath[1]] ?? []), ...errorPath.slice(2)];
    }
    return errorPath ? [...cursor.path, ...errorPath.slice()] : undefined;
  };
}

function downstreamServiceError(originalError: GraphQLFormattedError, serviceName: string, errorPath: ErrorPath): GraphQLError {
  const { extensions } = originalError;
  const message = originalError.message || `Error while fetching subquery from service "${serviceName}"`;
  const options: GraphQLErrorOptions = {
    originalError: originalError as Error,
    path: errorPath(originalError.path),
    extensions: { ...extensions, serviceName },
  };
  const codeDef = errorCodeDef(originalError);
  if (!codeDef && extensions?.code) return new GraphQLError(message, options);
  return (codeDef ?? ERRORS.DOWNSTREAM_SERVICE_ERROR).err(message, options);
}

/** The representation of an entity for a fetch's `requires` (executeQueryPlan.ts, `executeSelectionSet`). */
function executeSelectionSet(schema: GraphQLSchema, source: ResultMap | null, selections: QueryPlanSelectionNode[]): ResultMap | null {
  if (source === null) return null;
  const result = Object.create(null) as ResultMap;
  for (const selection of selections) {
    if (selection.kind === "Field") {
      const responseName = selection.alias ?? selection.name;
      const sub = selection.selections;
      if (!hasOwn(source, responseName) || typeof source[responseName] === "undefined") return null;
      const value = source[responseName];
      if (Array.isArray(value)) result[responseName] = value.map((item: ResultMap | null) => (sub ? executeSelectionSet(schema, item, sub) : item));
      else result[responseName] = sub ? executeSelectionSet(schema, value, sub) : value;
    } else {
      if (!selection.typeCondition || !source) continue;
      if (isObjectOfType(schema, source, selection.typeCondition)) deepMerge(result, executeSelectionSet(schema, source, selection.selections));
    }
  }
  return result;
}

function moveIntoCursor(cursor: Cursor, path: ResponsePath): Cursor | undefined {
  const data = flattenResultsAtPath(cursor.data, path);
  return data ? { path: cursor.path.concat(path), data, fullResult: cursor.fullResult } : undefined;
}

/**
 * The values at `path` below `value`, lists flattened, as `flattenResultsAtPath` of executeQueryPlan.ts
 * collects them (same order, same errors), without its copies of the path and its nested arrays.
 */
function flattenResultsAtPath(value: Cursor["data"] | undefined | null, path: ResponsePath): Cursor["data"] | undefined | null {
  let current: unknown = value;
  for (let index = 0; index < path.length; index += 1) {
    if (current === undefined || current === null) return current as undefined | null;
    const element = path[index];
    if (element === "@") {
      const out: unknown[] = [];
      collectAtPath(current, path, index, out);
      return out as ResultMap[];
    }
    if (typeof element !== "string") throw new Error(`Unexpected ${typeof element} found in path`);
    if (Array.isArray(current)) throw new Error(`Unexpected array in result for path element ${element}`);
    current = getOwn(current as ResultMap, element);
  }
  return current as Cursor["data"] | undefined | null;
}

/** Pushes onto `out` the elements `flattenResultsAtPath(value, path.slice(index))` yields inside its `flatMap`, in its order. */
function collectAtPath(value: unknown, path: ResponsePath, index: number, out: unknown[]): void {
  if (index === path.length || value === undefined || value === null) {
    // flatMap spreads an array one level and keeps anything else (null and undefined included) as one element.
    if (Array.isArray(value)) for (const item of value) out.push(item);
    else out.push(value);
    return;
  }
  const current = path[index];
  if (current === "@") {
    // Not a list where the plan expects one: the same TypeError as Apollo's `value.flatMap(...)`.
    if (!Array.isArray(value)) (value as { flatMap(): unknown }).flatMap();
    for (const element of value as unknown[]) collectAtPath(element, path, index + 1, out);
    return;
  }
  if (typeof current !== "string") throw new Error(`Unexpected ${typeof current} found in path`);
  if (Array.isArray(value)) throw new Error(`Unexpected array in result for path element ${current}`);
  collectAtPath(getOwn(value as ResultMap, current), path, index + 1, out);
}

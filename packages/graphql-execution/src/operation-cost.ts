/**
 * Threat: aliases multiply a field's result cap. `proofs(limit: 100000)` is within the row cap,
 * but ten aliases of it in one operation returned 288 MB and took the gateway to 4.2 GB. The
 * alias count alone does not bound this (two aliases of a nested list do as much harm), so every
 * operation is given a cost before it runs: the rows it can ask for across all its fields and
 * aliases. A list field costs its `limit` argument (capped by `maxListRows`, what the subgraph
 * would return at most) or `assumedListSize` when it has none, times the rows of the lists above
 * it (nested lists multiply); every other field (a count, a scalar) costs 1. An operation above `maxCost` is refused with LIMIT_EXCEEDED naming
 * the limit and the computed cost.
 */
import { operationCheckPlugin, type OperationCheck, type ResolvedOperation } from "./operation-check.js";
import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isListType,
  Kind,
  valueFromAST,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  isObjectType,
  isInterfaceType,
  type GraphQLNamedType,
} from "graphql";
import { LimitExceededError } from "@compliance-graph/errors";

export interface CostLimits {
  /** `GRAPHQL_MAX_COST`: the most rows one operation may ask for: two full pages of `maxListRows`. @default 200_000 */
  maxCost: number;
  /** `GRAPHQL_MAX_LIST_ROWS`: what one list field returns at most, whatever its `limit`. @default 100_000 */
  maxListRows: number;
  /** `GRAPHQL_ASSUMED_LIST_SIZE`: the rows counted for a list field without a `limit` argument. @default 10 */
  assumedListSize: number;
}

export const defaultCostLimits: CostLimits = { maxCost: 200_000, maxListRows: 100_000, assumedListSize: 10 };

/** The cost of one operation under `limits`, with its variables already coerced. */
export function operationCost(
  schema: GraphQLSchema,
  fragments: Map<string, FragmentDefinitionNode>,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  limits: CostLimits,
): number {
  const root =
    operation.operation === "query" ? schema.getQueryType() : operation.operation === "mutation" ? schema.getMutationType() : schema.getSubscriptionType();
  const fieldOf = (type: GraphQLNamedType, name: string): GraphQLField<unknown, unknown> | undefined => {
    if (isObjectType(type) || isInterfaceType(type)) return type.getFields()[name];
    return undefined;
  };
  const costOf = (type: GraphQLNamedType, selectionSet: SelectionSetNode, multiplier: number, seen: Set<string>): number => {
    let cost = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const field = fieldOf(type, selection.name.value);
        if (!field) continue; // __typename, or a field of a union member reached through a fragment
        let rows = 1;
        const isList = isListType(getNullableType(field.type));
        if (isList) {
          const limitArgument = field.args.find((argument) => argument.name === "limit");
          const node = selection.arguments?.find((argument) => argument.name.value === "limit");
          const given = limitArgument ? (node ? valueFromAST(node.value, limitArgument.type, variables) : limitArgument.defaultValue) : undefined;
          rows = typeof given === "number" ? Math.min(Math.max(given, 0), limits.maxListRows) : limits.assumedListSize;
        }
        cost += isList ? multiplier * rows : 1;
        if (selection.selectionSet) cost += costOf(getNamedType(field.type), selection.selectionSet, multiplier * rows, seen);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition ? (schema.getType(selection.typeCondition.name.value) ?? type) : type;
        cost += costOf(condition, selection.selectionSet, multiplier, seen);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (!fragment || seen.has(fragment.name.value)) continue;
        const condition = schema.getType(fragment.typeCondition.name.value) ?? type;
        cost += costOf(condition, fragment.selectionSet, multiplier, new Set(seen).add(fragment.name.value));
      }
      if (cost > Number.MAX_SAFE_INTEGER / 2) return cost;
    }
    return cost;
  };
  return root ? costOf(root, operation.selectionSet, 1, new Set()) : 0;
}

// One cost per resolved operation and limits: the cost check and the gateway's cost quotas measure it once.
const costByOperation = new WeakMap<ResolvedOperation, { limits: CostLimits; cost: number }>();

/** The cost of a resolved operation under `limits`, computed on the first call for the request. */
export function operationCostOf(resolved: ResolvedOperation, limits: CostLimits): number {
  const known = costByOperation.get(resolved);
  if (known?.limits === limits) return known.cost;
  const { schema, document, operation } = resolved;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const cost = operationCost(schema, fragments, operation, resolved.coercedVariables().coerced ?? {}, limits);
  costByOperation.set(resolved, { limits, cost });
  return cost;
}

/** The cost check as an operation check: the same function over HTTP (`costLimitPlugin`) and over WebSocket (`prepareOperation`). */
export function costLimitCheck(limits: CostLimits): OperationCheck {
  return (resolved) => {
    const cost = operationCostOf(resolved, limits);
    if (cost <= limits.maxCost) return;
    const refused = new LimitExceededError(
      "maxCost",
      limits.maxCost,
      `The operation can ask for ${cost} rows (every list field's limit, nested lists multiplied, across all aliases); at most ${limits.maxCost} are allowed. Ask for smaller pages or fewer aliases.`,
    );
    throw new GraphQLError(refused.message, { originalError: refused, extensions: { ...refused.extensions, cost, http: { status: 400 } } });
  };
}

/** Refuses, before execution, an operation whose cost is above `limits.maxCost` (HTTP 400). */
export function costLimitPlugin(limits: CostLimits) {
  return operationCheckPlugin(costLimitCheck(limits));
}

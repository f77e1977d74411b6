import type { ApolloServerPlugin, BaseContext } from "@apollo/server";
import { getVariableValues, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from "graphql";

/** The request's variables coerced to the operation's types, or why they do not coerce (graphql-js's `getVariableValues`). */
export type CoercedVariables = ReturnType<typeof getVariableValues>;

/** An operation once parsed, validated and chosen, with the request's variables. */
export interface ResolvedOperation {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** As the request sent them, not yet coerced. */
  variables: Record<string, unknown>;
  /** The variables coerced, computed on the first call only: the checks and the compiled run share it. */
  coercedVariables(): CoercedVariables;
}

export function resolvedOperation(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>): ResolvedOperation {
  let coerced: CoercedVariables | undefined;
  return {
    schema,
    document,
    operation,
    variables,
    coercedVariables: () => (coerced ??= getVariableValues(schema, operation.variableDefinitions ?? [], variables)),
  };
}

/** A check of an operation before it runs: throws the `GraphQLError` to answer instead. */
export type OperationCheck = (resolved: ResolvedOperation) => void;

/**
 * The Apollo Server plugin that runs `check` once the operation is resolved, carrying `check` as
 * well, for the compiled lane (`seen-operation-lane.ts`), which answers outside Apollo's pipeline
 * and must refuse exactly what the plugin refuses.
 */
export function operationCheckPlugin<TContext extends BaseContext>(check: OperationCheck): ApolloServerPlugin<TContext> & { check: OperationCheck } {
  return {
    check,
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request }) {
          if (operation) check(resolvedOperation(schema, document, operation, request.variables ?? {}));
        },
      };
    },
  };
}

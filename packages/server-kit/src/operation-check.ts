import type { ApolloServerPlugin, BaseContext } from "@apollo/server";
import type { DocumentNode, GraphQLSchema, OperationDefinitionNode } from "graphql";

/** An operation once parsed, validated and chosen, with the request's variables (not yet coerced). */
export interface ResolvedOperation {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown>;
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
          if (operation) check({ schema, document, operation, variables: request.variables ?? {} });
        },
      };
    },
  };
}

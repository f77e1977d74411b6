import { trace } from "@opentelemetry/api";
import type { ApolloServerPlugin, BaseContext } from "@apollo/server";

/** Names the operation on the request's server span (one request is one operation at a subgraph). */
export function operationAttributesPlugin<TContext extends BaseContext>(): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, operationName }) {
          trace.getActiveSpan()?.setAttributes({ "graphql.operation.type": operation?.operation ?? "unknown", "graphql.operation.name": operationName ?? "" });
        },
      };
    },
  };
}

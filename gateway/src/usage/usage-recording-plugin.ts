import type { ApolloServerPlugin } from "@apollo/server";
import type { GatewayContext } from "../gateway-context.js";
import type { OperationUsage } from "./operation-usage.js";

/**
 * Records the usage of every operation the gateway resolves over HTTP (operation-usage.ts), also
 * one then refused for its caller's roles, cost or quota: the client's code selects those
 * coordinates all the same, and a removal changes what it gets.
 */
export function usageRecordingPlugin(usage: OperationUsage): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue }) {
          if (!operation) return;
          usage.record({ schema, document, operation, variables: request.variables, client: contextValue.identity.client }, contextValue.requestKey);
        },
      };
    },
  };
}

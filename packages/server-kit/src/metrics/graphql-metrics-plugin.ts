import type { ApolloServerPlugin, BaseContext } from "@apollo/server";
import type { ServiceMetrics } from "./service-metrics.js";

/**
 * Counts and times every GraphQL operation Apollo Server answers. The outcome is `ok` or the code
 * of the first error (a fixed set: the server masks everything else to INTERNAL_SERVER_ERROR);
 * an operation that never parsed has type `unknown`.
 */
export function graphqlMetricsPlugin<TContext extends BaseContext>(metrics: ServiceMetrics): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      const started = performance.now();
      return {
        async willSendResponse({ operation, operationName, errors, response }) {
          const body = response.body.kind === "single" ? response.body.singleResult : undefined;
          const first = errors?.[0] ?? body?.errors?.[0];
          const code = first?.extensions?.code;
          const labels = {
            operation_name: metrics.operationNames.valueOf(operationName),
            operation_type: operation?.operation ?? "unknown",
            outcome: first ? (typeof code === "string" && /^[A-Z_]{1,40}$/.test(code) ? code : "INTERNAL_SERVER_ERROR") : "ok",
          };
          metrics.graphqlOperations.inc(labels);
          metrics.graphqlOperationSeconds.observe(labels, (performance.now() - started) / 1000);
        },
      };
    },
  };
}

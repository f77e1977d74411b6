import type { ApolloServerPlugin, BaseContext } from "@apollo/server";
import type { GraphQLFormattedError } from "graphql";
import type { ServiceMetrics } from "@compliance-graph/process-shell";

/**
 * Counts and times one GraphQL operation. The outcome is `ok` or the code of the first error (a
 * fixed set: the server masks everything else to INTERNAL_SERVER_ERROR); an operation that never
 * parsed has type `unknown`.
 */
export function recordGraphQLOperation(
  metrics: ServiceMetrics,
  operation: { name: string | null | undefined; type: string | undefined; firstError: Pick<GraphQLFormattedError, "extensions"> | undefined },
  startedAt: number,
): void {
  const code = operation.firstError?.extensions?.code;
  const labels = {
    operation_name: metrics.operationNames.valueOf(operation.name),
    operation_type: operation.type ?? "unknown",
    outcome: operation.firstError ? (typeof code === "string" && /^[A-Z_]{1,40}$/.test(code) ? code : "INTERNAL_SERVER_ERROR") : "ok",
  };
  metrics.graphqlOperations.inc(labels);
  metrics.graphqlOperationSeconds.observe(labels, (performance.now() - startedAt) / 1000);
}

/** Records every GraphQL operation Apollo Server answers (see `recordGraphQLOperation`). */
export function graphqlMetricsPlugin<TContext extends BaseContext>(metrics: ServiceMetrics): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      const started = performance.now();
      return {
        async willSendResponse({ operation, operationName, errors, response }) {
          const body = response.body.kind === "single" ? response.body.singleResult : undefined;
          recordGraphQLOperation(metrics, { name: operationName, type: operation?.operation, firstError: errors?.[0] ?? body?.errors?.[0] }, started);
        },
      };
    },
  };
}

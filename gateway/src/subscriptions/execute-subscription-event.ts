import { executeQueryPlan, type GraphQLDataSource, type ServiceMap } from "@apollo/gateway";
import type { FetchNode, QueryPlan } from "@apollo/query-planner";
import type { GatewayGraphQLRequestContext } from "@apollo/server-gateway-interface";
import type { FormattedExecutionResult, GraphQLFormattedError } from "graphql";
import { maskError } from "@compliance-graph/errors";
import type { Logger } from "@compliance-graph/process-shell";
import type { GatewayContext } from "../gateway-context.js";
import type { PlannedSubscription } from "./subscription-planner.js";

/** What the owning subgraph sent for one event: the primary fetch's result. */
export interface UpstreamEvent {
  data?: Record<string, unknown> | null;
  errors?: readonly GraphQLFormattedError[];
}

/** The name the event stands in for the primary fetch under; no subgraph can be called this. */
const eventSourceName = "\u0000subscription-event";

/**
 * Turns one event of the primary subscription into the client's result by running the rest of the
 * subscription plan with `@apollo/gateway`'s own executor: the plan is "primary fetch, then the
 * rest", where the primary fetch is answered by the event instead of a subgraph call. Entity
 * fetches to the other subgraphs (with their internal identity tokens, through the same data
 * sources as HTTP requests), `@interfaceObject` rewrites and result shaping (aliases, fragments,
 * fields the plan added for keys removed) are therefore exactly those of a query.
 */
export async function executeSubscriptionEvent(
  subscription: PlannedSubscription,
  event: UpstreamEvent,
  dataSources: ServiceMap,
  context: GatewayContext,
  logger: Logger,
): Promise<FormattedExecutionResult> {
  const { plan, planner, operationContext, variables } = subscription;
  const eventSource: GraphQLDataSource = {
    process: async () => ({ data: event.data ?? null, ...(event.errors ? { errors: event.errors as never } : {}) }),
  };
  const primary: FetchNode = { ...plan.primary, serviceName: eventSourceName };
  const queryPlan: QueryPlan = { kind: "QueryPlan", node: { kind: "Sequence", nodes: plan.rest ? [primary, plan.rest] : [primary] } };
  // The executor reads these fields of Apollo Server's request context and no others.
  const requestContext = {
    request: { variables },
    context,
    logger,
    metrics: {},
    operation: operationContext.operation,
  } as unknown as GatewayGraphQLRequestContext<GatewayContext>;
  const result = await executeQueryPlan(
    queryPlan,
    { ...dataSources, [eventSourceName]: eventSource },
    requestContext,
    operationContext,
    planner.supergraphGraphQLSchema,
    planner.apiSchema,
  );
  const formatted: FormattedExecutionResult = { data: (result.data ?? null) as FormattedExecutionResult["data"] };
  if (result.errors?.length) {
    formatted.errors = result.errors.map((error) => {
      const masked = maskError(error.toJSON(), error, { trustCodes: true });
      if (masked.extensions?.serviceName !== eventSourceName) return masked;
      return { ...masked, extensions: { ...masked.extensions, serviceName: plan.primary.serviceName } };
    });
  }
  return formatted;
}

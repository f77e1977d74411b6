/** GraphQL execution and hardening: how an operation is checked, executed and answered, on the gateway and in the subgraphs. */
export { aliasLimitRule, depthLimitRule, defaultQueryLimits, type QueryLimits } from "./query-limits.js";
export { startSubgraphServer, type RunningSubgraphServer, type SubgraphServerOptions } from "./start-subgraph-server.js";
export { PushQueue } from "./push-queue.js";
export { prepareOperation, type OperationChecks, type OperationPayload, type PreparedOperation } from "./prepare-operation.js";
export { operationCheckPlugin, resolvedOperationOf, type OperationCheck, type ResolvedOperation } from "./operation-check.js";
export { answerApolloRequest, executeApolloRequest, writeGraphQLAnswer, type GraphQLAnswer } from "./execute-apollo-request.js";
export { readGraphQLBody } from "./read-graphql-body.js";
export { hardenedApolloOptions } from "./hardened-apollo-options.js";
export { unknownOutcome, unknownOutcomePlugin } from "./unknown-outcome-plugin.js";
export { withoutSuggestions } from "./without-suggestions.js";
export { inputValuesCheck, inputValuesPlugin, type ScalarCheck } from "./input-values-plugin.js";
export { costLimitCheck, costLimitPlugin, defaultCostLimits, operationCost, operationCostOf, type CostLimits } from "./operation-cost.js";
export { graphqlMetricsPlugin } from "./graphql-metrics-plugin.js";

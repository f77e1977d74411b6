export { startGateway, internalJwksPath, type GatewayOptions, type RunningGateway } from "./start-gateway.js";
export { createSubgraphFetcher, type SubgraphFetcher } from "./identity-propagation/subgraph-fetcher.js";
export { gatewayOptionsFromEnv } from "./gateway-options-from-env.js";
export { composeSupergraph, composeSubgraphs, CompositionError } from "./composition/compose-supergraph.js";
export { readSupergraphConfig, type SupergraphConfig, type SubgraphConfig } from "./composition/supergraph-config.js";
export { createSupergraphSource, type SupergraphSource, type SubgraphEndpoint } from "./composition/supergraph-source.js";
export {
  createAccessTokenVerifier,
  type AccessTokenVerifier,
  type AccessTokenVerifierOptions,
} from "./authentication/access-token-verifier.js";
export { defaultAccessTokenMarkers, parseAccessTokenMarkers, type AccessTokenMarker } from "./authentication/access-token-marker.js";
export type { GatewayContext } from "./gateway-context.js";
export { SubscriptionCloseCode } from "./subscriptions/subscription-close-code.js";
export { defaultSubscriptionLimits, subscriptionLimitsFromEnv, type SubscriptionLimits } from "./subscriptions/subscription-limits.js";
export { quotaSettingsFromEnv, type QuotaLimits, type QuotaSettings } from "./quotas/quota-settings.js";
export { createQuotaDoor, type QuotaDoor } from "./quotas/quota-door.js";

import { existsSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApolloGateway } from "@apollo/gateway";
import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginInlineTraceDisabled, ApolloServerPluginUsageReportingDisabled } from "@apollo/server/plugin/disabled";
import type { JWK } from "jose";
import { dateTimeScalar } from "@compliance-graph/filter";
import { parse } from "graphql";
import { createInternalTokenMinter, developmentKeyIdPrefix, publicJwkOf, RequiredRoles, type Identity } from "@compliance-graph/identity";
import {
  createLogger,
  createHttpServerShell,
  OutageLog,
  type MetricsExposure,
  type Logger,
  type RouteDefinition,
  type RouteDoor,
} from "@compliance-graph/process-shell";
import {
  costLimitCheck,
  defaultCostLimits,
  defaultQueryLimits,
  graphqlMetricsPlugin,
  hardenedApolloOptions,
  inputValuesCheck,
  operationCheckPlugin,
  unknownOutcomePlugin,
  type CostLimits,
  type OperationCheck,
  type QueryLimits,
} from "@compliance-graph/graphql-execution";
import { createAccessTokenVerifier, type AccessTokenVerifierOptions } from "./authentication/access-token-verifier.js";
import { authenticateRequest } from "./authentication/authenticate-request.js";
import { GatewayMetrics } from "./gateway-metrics.js";
import { createSupergraphAuthorization } from "./authorization/authorization-plugin.js";
import { ServedRoles } from "./authorization/served-roles.js";
import { enforceSubgraphFetchLimit } from "./authorization/subgraph-fetch-limit.js";
import { createRegistrySupergraphSource } from "./composition/registry-supergraph-source.js";
import { registryKeysFrom } from "./composition/registry-keys.js";
import { createSupergraphSource } from "./composition/supergraph-source.js";
import type { GatewayContext } from "./gateway-context.js";
import { checkSubgraphsReady } from "./http/check-subgraphs-ready.js";
import { createGraphQLHandler } from "./http/handle-graphql.js";
import { readSubgraphRoutes } from "./http/read-subgraph-routes.js";
import { refuseHttpSubscriptions } from "./http/refuse-http-subscriptions.js";
import { publicSubmissionLimit } from "./http/public-submission-limit.js";
import { servedSubgraphRoutes } from "./http/served-subgraph-routes.js";
import { registryDoorRoutes, registryDoorSubgraph } from "./http/registry-door-routes.js";
import { createInflightRequestSharing } from "./http/share-inflight-requests.js";
import { createPlanExecutingGateway } from "./execution/plan-executing-gateway.js";
import { stringifyResult } from "./execution/serialized-data.js";
import { startApollo } from "./execution/start-apollo.js";
import { IdentityPropagatingDataSource } from "./identity-propagation/identity-propagating-data-source.js";
import { createSubgraphFetcher } from "./identity-propagation/subgraph-fetcher.js";
import { createQuotaDoor } from "./quotas/quota-door.js";
import type { QuotaSettings } from "./quotas/quota-settings.js";
import { createSubscriptionServer } from "./subscriptions/subscription-server.js";
import { createOperationUsage } from "./usage/operation-usage.js";
import { createUsageRecorder } from "./usage/usage-recorder.js";
import { usageRecordingPlugin } from "./usage/usage-recording-plugin.js";
import type { SubscriptionLimits } from "./subscriptions/subscription-limits.js";

export interface GatewayOptions {
  /** `PORT`; 0 picks a free one. @default 4000 */
  port: number;
  /** `HOST`. @default "127.0.0.1" */
  host?: string;
  /** `NODE_ENV=production`: refuses development keys, hides introspection. */
  production: boolean;
  /** The supergraph file and how often it is checked for changes (see `createSupergraphSource`). */
  supergraph: { path: string; pollIntervalMs?: number };
  /**
   * `GATEWAY_REGISTRY_URL` and the rest: take the supergraph, and the subgraph routes, from the
   * schema registry instead of `supergraph.path` and `subgraphRoutesPath` (see
   * `createRegistrySupergraphSource`). `keys` is `GATEWAY_SUPERGRAPH_KEYS` (required in production);
   * `cachePath` is `GATEWAY_SUPERGRAPH_CACHE_PATH` (default: `compliance-graph-gateway/supergraph.json`
   * under the system's temporary folder); `pollIntervalMs` is `GATEWAY_REGISTRY_POLL_INTERVAL_MS` (default 2_000).
   */
  registry?: { url: string; keys?: string; cachePath?: string; pollIntervalMs?: number };
  /**
   * Usage recording for the registry's checks (see usage/usage-recorder.ts): `url` is
   * `GATEWAY_USAGE_URL` (default `<GATEWAY_REGISTRY_URL>/usage`; off with `GATEWAY_USAGE_RECORDING=false`),
   * `flushIntervalMs` `GATEWAY_USAGE_FLUSH_INTERVAL_MS`, `maxOperations` `GATEWAY_USAGE_MAX_OPERATIONS`.
   * @default off
   */
  usage?: { url: string; flushIntervalMs?: number; maxOperations?: number };
  /**
   * `SUBGRAPH_ROUTES_PATH`: the subgraphs' plain HTTP routes served behind the gateway's
   * authentication (see `SubgraphRoute`), read once at start. @default "subgraph-routes.yaml"
   */
  subgraphRoutesPath?: string;
  /** `SUBGRAPH_<NAME>_URL`: routing URLs that replace the supergraph's, by subgraph name. */
  subgraphUrls?: Record<string, string>;
  /** The callers' identity provider. */
  oidc: AccessTokenVerifierOptions;
  /** The gateway's own key for internal tokens (`INTERNAL_JWT_*`). */
  internalToken: { privateJwk: JWK; issuer?: string; ttlSeconds?: number; additionalPublicKeys?: JWK[] };
  /** `GRAPHQL_INTROSPECTION`. @default !production */
  introspection?: boolean;
  limits?: Partial<QueryLimits>;
  /** `GRAPHQL_MAX_COST`, `GRAPHQL_MAX_LIST_ROWS`, `GRAPHQL_ASSUMED_LIST_SIZE` (see operation-cost.ts). */
  cost?: Partial<CostLimits>;
  /** `GRAPHQL_MAX_SUBGRAPH_FETCHES`: subgraph calls one operation may make (see subgraph-fetch-limit.ts). @default 20 */
  maxSubgraphFetches?: number;
  /** `GRAPHQL_MAX_BODY_BYTES`. @default 1_048_576 // 1 MiB */
  maxBodyBytes?: number;
  /**
   * `GATEWAY_DEDUPLICATE_QUERIES`: share one subgraph call among identical queries of the same
   * identity in flight at the same moment (see deduplicate-inflight-queries.ts). @default true
   */
  deduplicateQueries?: boolean;
  /**
   * `GATEWAY_EXECUTE_PLANS`: run query plans with the gateway's own executor and answer writer
   * instead of `@apollo/gateway`'s (see execution/plan-executing-gateway.ts). @default true
   */
  executePlans?: boolean;
  /**
   * `GATEWAY_SHARE_REQUESTS`: identical queries of the same identity and roles in flight at the
   * same moment share one execution and its answer (see share-inflight-requests.ts). @default true
   */
  shareRequests?: boolean;
  /**
   * `GATEWAY_SUBGRAPH_TIMEOUT_MS`: how long a subgraph may take to answer a call before the
   * operation fails with SERVICE_UNAVAILABLE naming it. @default 30_000 // 30 seconds
   */
  subgraphTimeoutMs?: number;
  logger?: Logger;
  /** `SHUTDOWN_DRAIN_SECONDS`: how long `close` lets requests in flight finish. @default 10_000 // milliseconds */
  drainMs?: number;
  /** Limits of WebSocket subscriptions (`SUBSCRIPTION_*`; see docs/subscriptions.md). */
  subscriptions?: Partial<SubscriptionLimits>;
  /**
   * `GATEWAY_TRUSTED_PROXY_HOPS`: proxies in front of the gateway whose `x-forwarded-for` entries
   * name the client, for the subscription caps per address; 0: the socket's address. @default 0
   */
  trustedProxyHops?: number;
  /** `GATEWAY_QUOTA_*`: requests and operation cost per client and per subject, per window (docs/quotas.md); none when undefined. */
  quotas?: QuotaSettings | undefined;
  /**
   * `GATEWAY_PUBLIC_SUBMISSIONS_PER_MINUTE`: bodies one client address may send to public subgraph
   * routes (a witness's cosignature) a minute, per replica. @default 30
   */
  publicSubmissionsPerMinute?: number;
  /** Routes served beside the gateway's own (the development identity provider, `npm start`'s ingress). */
  routes?: readonly RouteDefinition<Identity>[];
  /** Where `/metrics` is served (`METRICS_PORT`, `METRICS_HOST`). @default on the gateway's port */
  metricsExposure?: MetricsExposure;
}

export interface RunningGateway {
  /** `http://host:port/graphql`. */
  url: string;
  /** `http://host:port`. */
  baseUrl: string;
  httpServer: Server;
  metrics: GatewayMetrics;
  /** Where Prometheus scrapes the gateway. */
  metricsUrl: string;
  /** Checks the supergraph files now instead of at the next poll. */
  reloadSupergraph(): Promise<void>;
  /** Every role the served supergraph and routes declare, sorted (the development identity provider grants them to its API client). */
  servedRoles(): string[];
  close(): Promise<void>;
}

/** Path of the gateway's public internal-token keys, for subgraphs configured with `INTERNAL_JWKS_URL`. */
export const internalJwksPath = "/.well-known/internal-jwks.json";

/**
 * Starts the gateway: one `/graphql` for the supergraph, bearer tokens checked once, operations
 * authorized before planning, and each subgraph call carrying an internal identity token.
 */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const logger = options.logger ?? createLogger("gateway");
  const { production } = options;
  // Read before anything starts: a wrong routes file, or a SUBGRAPH_ROUTES_PATH that names none, stops the start
  // with an error naming it. Without SUBGRAPH_ROUTES_PATH the file is optional (the image holds none): with the
  // registry, the subgraphs' routes come published with the supergraph; with a supergraph file, none are served.
  const routesPath = options.subgraphRoutesPath ?? "subgraph-routes.yaml";
  const subgraphRouteList = options.subgraphRoutesPath === undefined && !existsSync(routesPath) ? [] : await readSubgraphRoutes(routesPath);
  const registryKeys = options.registry ? registryKeysFrom(options.registry.keys, options.registry.url, production) : undefined;
  if (registryKeys && !registryKeys.pinned) logger.warn("no GATEWAY_SUPERGRAPH_KEYS: trusting the keys the registry itself publishes (development only)");
  const { privateJwk } = options.internalToken;
  if (production && (typeof privateJwk.kid !== "string" || privateJwk.kid.startsWith(developmentKeyIdPrefix))) {
    throw new Error("The gateway refuses a development internal signing key in production; set INTERNAL_JWT_PRIVATE_JWK.");
  }
  const limits = { ...defaultQueryLimits, ...options.limits };
  const metrics = new GatewayMetrics();
  // The roles a token's grants may name: the served supergraph's and routes' (served-roles.ts).
  const servedRoles = new ServedRoles(() => verifier.forgetVerifiedTokens());
  const verifier = createAccessTokenVerifier(
    { requireHttpsIssuer: production, ...options.oidc, isDeclaredRole: (role) => servedRoles.has(role) },
    (reason) => logger.info({ reason }, "access token refused"),
    metrics,
  );
  if (options.oidc.accessTokenMarkers?.length === 0)
    logger.warn("OIDC_ACCESS_TOKEN_MARKERS=none: any token of the issuer with the audience is taken as an access token, ID tokens too");
  const mint = await createInternalTokenMinter({
    privateJwk,
    ...(options.internalToken.issuer ? { issuer: options.internalToken.issuer } : {}),
    ...(options.internalToken.ttlSeconds ? { ttlSeconds: options.internalToken.ttlSeconds } : {}),
  });
  const internalJwks = JSON.stringify({ keys: [publicJwkOf(privateJwk), ...(options.internalToken.additionalPublicKeys ?? [])] });
  const subgraphUrls = options.subgraphUrls ?? {};
  const fetcher = createSubgraphFetcher({
    deduplicateQueries: options.deduplicateQueries ?? true,
    ...(options.subgraphTimeoutMs !== undefined ? { headersTimeoutMs: options.subgraphTimeoutMs } : {}),
  });
  const registrySource =
    options.registry && registryKeys
      ? createRegistrySupergraphSource({
          registryUrl: options.registry.url,
          keys: registryKeys.keys,
          cachePath: options.registry.cachePath ?? join(tmpdir(), "compliance-graph-gateway", "supergraph.json"),
          ...(options.registry.pollIntervalMs !== undefined ? { pollIntervalMs: options.registry.pollIntervalMs } : {}),
          logger,
          metrics,
        })
      : undefined;
  const source = registrySource ?? createSupergraphSource({ path: options.supergraph.path, pollIntervalMs: options.supergraph.pollIntervalMs, logger });
  const authorization = createSupergraphAuthorization();
  const gatewayLogger = logger.child({ component: "apollo-gateway" });
  const outages = new OutageLog(logger);

  const buildService = ({ name, url }: { name: string; url?: string }) =>
    new IdentityPropagatingDataSource({ subgraph: name, url: subgraphUrls[name] ?? url ?? "", mint, fetcher: fetcher.fetcher, outages, metrics });
  // The checks of an operation beyond the schema, built once: the HTTP lane runs them as plugins, the WebSocket lanes call them.
  const costLimits = { ...defaultCostLimits, ...options.cost };
  const operationChecks: readonly OperationCheck[] = [
    inputValuesCheck({ scalars: { DateTime: (value) => dateTimeScalar.parseValue(value) } }),
    costLimitCheck(costLimits),
  ];
  const quotas = options.quotas ? createQuotaDoor({ settings: options.quotas, costLimits, metrics, logger }) : undefined;
  const usage = options.usage
    ? createUsageRecorder({
        usageUrl: options.usage.url,
        mint,
        ...(options.usage.flushIntervalMs !== undefined ? { flushIntervalMs: options.usage.flushIntervalMs } : {}),
        ...(options.usage.maxOperations !== undefined ? { maxOperations: options.usage.maxOperations } : {}),
        logger,
        metrics,
      })
    : undefined;
  const operationUsage = usage ? createOperationUsage(usage) : undefined;
  // Subscriptions are served beside @apollo/gateway, which cannot execute them (subscriptions/).
  const subscriptionServer = createSubscriptionServer({
    verifier,
    mint,
    buildService,
    subgraphUrls,
    lane: { limits: { ...limits, suggestions: options.introspection ?? !production }, checks: operationChecks },
    limits: options.subscriptions,
    trustedProxyHops: options.trustedProxyHops ?? 0,
    logger: logger.child({ component: "subscriptions" }),
    metrics,
    quotas,
    usage: operationUsage,
  });
  const enforceFetchLimit = enforceSubgraphFetchLimit(options.maxSubgraphFetches ?? 20);
  // Set below: Apollo plans, the plan-executing gateway keeps each plan it makes and runs it.
  let keepPlan: (
    resolved: Parameters<typeof enforceFetchLimit>[0] & Parameters<ReturnType<typeof createPlanExecutingGateway>["didResolveQueryPlan"]>[0],
  ) => void = () => {};
  const gateway = new ApolloGateway({
    supergraphSdl: source.hook,
    buildService,
    experimental_didResolveQueryPlan: (resolved) => {
      enforceFetchLimit(resolved);
      keepPlan(resolved);
    },
    logger: {
      debug: (message: unknown) => gatewayLogger.debug(String(message)),
      info: (message: unknown) => gatewayLogger.info(String(message)),
      warn: (message: unknown) => gatewayLogger.warn(String(message)),
      error: (message: unknown) => gatewayLogger.error(String(message)),
    },
  });
  const planExecuting = options.executePlans === false ? undefined : createPlanExecutingGateway(gateway, metrics.planExecutions);
  if (planExecuting) keepPlan = planExecuting.didResolveQueryPlan;
  gateway.onSchemaLoadOrUpdate(({ coreSupergraphSdl }) => {
    const required = RequiredRoles.fromDocument(parse(coreSupergraphSdl));
    authorization.update(required);
    servedRoles.setSupergraphRoles(required.declaredRoles());
  });
  gateway.onSchemaLoadOrUpdate(({ coreSupergraphSdl }) => subscriptionServer.updateSupergraph(coreSupergraphSdl));

  const apollo = new ApolloServer<GatewayContext>({
    gateway: planExecuting?.gateway ?? gateway,
    ...(planExecuting ? { stringifyResult } : {}),
    // Subgraphs mask their own errors, so the public codes they send are trusted.
    ...hardenedApolloOptions({ introspection: options.introspection ?? !production, limits, logger, trustCodes: true }),
    plugins: [
      ApolloServerPluginInlineTraceDisabled(),
      ApolloServerPluginUsageReportingDisabled(),
      graphqlMetricsPlugin(metrics),
      refuseHttpSubscriptions,
      unknownOutcomePlugin,
      authorization.plugin,
      ...operationChecks.map((check) => operationCheckPlugin<GatewayContext>(check)),
      ...(quotas ? [quotas.plugin] : []),
      ...(operationUsage ? [usageRecordingPlugin(operationUsage)] : []),
    ],
  });
  const sharing = options.shareRequests === false ? undefined : createInflightRequestSharing({ shared: metrics.sharedRequests, maxTokens: limits.maxTokens });
  if (sharing) gateway.onSchemaLoadOrUpdate(() => sharing.supergraphChanged());
  const started = await startApollo(apollo, registrySource, logger);

  const subgraphs = () => source.subgraphs().map(({ name, url }) => ({ name, url: subgraphUrls[name] ?? url }));
  const handleGraphQL = createGraphQLHandler({
    apollo,
    serving: started.serving,
    maxBodyBytes: options.maxBodyBytes ?? 1_048_576,
    logger,
    sharing,
    quotas,
    usage: operationUsage,
  });
  // Files (media proofs, downloads) are too large for GraphQL's JSON: the subgraphs' routes behind the same door.
  // The one door of the gateway's identified routes: the caller's bearer token (authenticate-request.ts).
  const door: RouteDoor<Identity> = (request, response, requestId, refuse) => authenticateRequest(request, response, { verifier, logger, requestId, refuse });
  // The schema registry is no subgraph of the supergraph: its command-line routes go to the
  // registry the gateway takes its supergraph from, or to SUBGRAPH_REGISTRY_URL beside a file.
  const registryUrl = options.registry?.url ?? subgraphUrls.registry;
  const doorRoutes = registryUrl ? registryDoorRoutes : [];
  const routeOptions = {
    subgraphUrl: (name: string) => subgraphs().find((subgraph) => subgraph.name === name)?.url ?? (name === registryDoorSubgraph ? registryUrl : undefined),
    mint,
    logger,
    publicSubmissions: publicSubmissionLimit({ perMinute: options.publicSubmissionsPerMinute ?? 30, trustedProxyHops: options.trustedProxyHops ?? 0 }),
  };
  const subgraphRoutes = servedSubgraphRoutes({
    ...routeOptions,
    fileRoutes: [...subgraphRouteList, ...doorRoutes],
    published: registrySource,
    door,
    servedRoles,
  });

  const shell = createHttpServerShell({
    port: options.port,
    host: options.host,
    logger,
    checkReady: async () => {
      // Before an empty registry's first version there are no subgraphs to ask: the door serves, degraded.
      await Promise.all([started.serving() ? checkSubgraphsReady(subgraphs()) : undefined, verifier.ensureSigningKeys()]);
      // Served from what it has (the registry's last verified supergraph), yet the operator should know.
      const degraded = source.degraded();
      return degraded.length > 0 ? { degraded } : undefined;
    },
    drainMs: options.drainMs,
    metrics,
    ...(options.metricsExposure ? { metricsExposure: options.metricsExposure } : {}),
    door,
    routes: [
      { path: "/graphql", access: "identified", handle: handleGraphQL },
      {
        path: internalJwksPath,
        access: "public",
        handle: ({ response }) => {
          response.writeHead(200, { "content-type": "application/json", "cache-control": "max-age=300" });
          response.end(internalJwks);
        },
      },
      ...subgraphRoutes.routes,
      ...(options.routes ?? []),
    ],
  });
  const httpServer = shell.httpServer;
  subscriptionServer.attach(httpServer);
  const baseUrl = await shell.listen();
  const metricsUrl = shell.metricsUrl as string;
  logger.info({ url: `${baseUrl}/graphql`, metricsUrl }, "gateway listening");

  let closing: Promise<void> | undefined;
  return {
    url: `${baseUrl}/graphql`,
    baseUrl,
    httpServer,
    metrics,
    metricsUrl,
    reloadSupergraph: () => source.reload(),
    servedRoles: () => servedRoles.list(),
    close: () => {
      closing ??= (async () => {
        await subscriptionServer.close();
        await shell.close();
        await started.stop();
        await fetcher.close();
        await subgraphRoutes.close();
        await quotas?.close();
        await usage?.close();
      })();
      return closing;
    },
  };
}

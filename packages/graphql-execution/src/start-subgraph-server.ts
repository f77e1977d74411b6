import type { Server } from "node:http";
import { ApolloServer, type BaseContext } from "@apollo/server";
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled } from "@apollo/server/plugin/disabled";
import type { GraphQLSchema } from "graphql";
import type { Identity, IdentityDoor } from "@compliance-graph/identity";
import {
  createHttpServerShell,
  isTracingEnabled,
  type Logger,
  type MetricsExposure,
  type OutageLog,
  type ReadinessReport,
  type RouteCall,
  type RouteDefinition,
  ServiceMetrics,
} from "@compliance-graph/process-shell";
import { hardenedApolloOptions } from "./hardened-apollo-options.js";
import { inputValuesCheck } from "./input-values-plugin.js";
import { unknownOutcomePlugin } from "./unknown-outcome-plugin.js";
import { costLimitCheck, defaultCostLimits, type CostLimits } from "./operation-cost.js";
import { operationCheckPlugin, type OperationCheck } from "./operation-check.js";
import { defaultQueryLimits, type QueryLimits } from "./query-limits.js";
import { executeApolloRequest } from "./execute-apollo-request.js";
import { compiledExecutionGateway } from "./compiled-execution-gateway.js";
import { readGraphQLBody } from "./read-graphql-body.js";
import { graphqlMetricsPlugin } from "./graphql-metrics-plugin.js";
import { operationAttributesPlugin } from "./operation-attributes-plugin.js";
import { traceResolvers } from "./trace-resolvers.js";

export interface SubgraphServerOptions<TContext extends BaseContext> {
  /** The subgraph's name, as in `supergraph.yaml`; used in logs. */
  name: string;
  schema: GraphQLSchema;
  /** TCP port; 0 picks a free one. */
  port: number;
  /** @default "127.0.0.1" */
  host?: string;
  production: boolean;
  /** Serve introspection. @default !production */
  introspection?: boolean;
  limits?: Partial<QueryLimits>;
  /** The operation cost limit, checked again here behind the gateway (see operation-cost.ts). */
  cost?: Partial<CostLimits>;
  /** Largest request body accepted. @default 1_048_576 // 1 MiB */
  maxBodyBytes?: number;
  /**
   * Who is calling (`createIdentityDoor`): the subgraph's one door, shared with its other routes; a
   * caller it refuses gets HTTP 401 before the body is read.
   */
  identity: IdentityDoor;
  createContext: (input: { identity: Identity; requestId: string; logger: Logger }) => TContext | Promise<TContext>;
  /** Resolves when the subgraph can serve (database reachable); rejects otherwise. See `ReadinessReport` for degraded parts. */
  checkReady: () => Promise<void | ReadinessReport>;
  logger: Logger;
  /**
   * Routes of the subgraph's own beside `/graphql` (a public callback, a file route): each says its
   * path, methods and whether the identity door guards it, which the shell then applies.
   */
  routes?: readonly RouteDefinition<Identity>[];
  /** How long `close` lets requests in flight finish. @default SHUTDOWN_DRAIN_SECONDS or 10_000 // milliseconds */
  drainMs?: number;
  /** The dependency whose outage is SERVICE_UNAVAILABLE rather than an internal error (see `hardenedApolloOptions`). */
  dependency?: { part: string; outages: OutageLog };
  /**
   * `GRAPHQL_COMPILED_EXECUTION`: run queries compiled by graphql-jit inside Apollo Server (see
   * `compiled-execution-gateway.ts`); false runs every operation with graphql-js.
   * @default true
   */
  compiledExecution?: boolean;
  /** The subgraph's metrics (HTTP requests and operations are recorded here); one is made otherwise. */
  metrics?: ServiceMetrics;
  /** Where `/metrics` is served (`metricsExposureFromEnv` in a deployable's main). @default on the subgraph's port */
  metricsExposure?: MetricsExposure;
}

export interface RunningSubgraphServer {
  url: string;
  httpServer: Server;
  metrics: ServiceMetrics;
  /** The metrics URL (on the main port or `METRICS_PORT`). */
  metricsUrl: string;
  /** The checks of an operation its HTTP lane runs (input values, cost): the WebSocket lane runs these very functions. */
  operationChecks: readonly OperationCheck[];
  /** Stops taking requests, lets running ones finish (up to the drain time), then stops Apollo Server. */
  close(): Promise<void>;
}

/**
 * Serves one subgraph over HTTP with the production defaults every deployable shares: CSRF
 * prevention, query limits, a body size cap, masked errors, health endpoints, JSON logs with the
 * request id, and a graceful shutdown.
 */
export async function startSubgraphServer<TContext extends BaseContext>(options: SubgraphServerOptions<TContext>): Promise<RunningSubgraphServer> {
  const { logger, production } = options;
  const limits = { ...defaultQueryLimits, ...options.limits };
  const maxBodyBytes = options.maxBodyBytes ?? 1_048_576;
  const metrics = options.metrics ?? new ServiceMetrics(options.name);
  const tracing = isTracingEnabled();
  if (tracing) traceResolvers(options.schema);
  const compiled = (options.compiledExecution ?? process.env.GRAPHQL_COMPILED_EXECUTION !== "false") ? compiledExecutionGateway(options.schema) : undefined;
  // The checks of an operation beyond the schema's own, built once: Apollo runs them as plugins over
  // HTTP, and a subgraph's WebSocket lane runs the same functions (`operationChecks`).
  const operationChecks: readonly OperationCheck[] = [inputValuesCheck(), costLimitCheck({ ...defaultCostLimits, ...options.cost })];
  const apollo = new ApolloServer<TContext>({
    ...(compiled ? { gateway: compiled } : { schema: options.schema }),
    ...hardenedApolloOptions({
      introspection: options.introspection ?? !production,
      limits,
      logger,
      ...(options.dependency ? { dependency: options.dependency } : {}),
    }),
    // Neither cache hints nor federated tracing are used; both plugins would wrap every resolver.
    plugins: [
      ApolloServerPluginInlineTraceDisabled(),
      ApolloServerPluginCacheControlDisabled(),
      graphqlMetricsPlugin(metrics),
      unknownOutcomePlugin,
      ...(tracing ? [operationAttributesPlugin<TContext>()] : []),
      ...operationChecks.map((check) => operationCheckPlugin<TContext>(check)),
    ],
  });
  await apollo.start();

  // Behind the identity door: a caller it refuses gets HTTP 401 before the body is read.
  const handleGraphQL = async ({ request, response, requestId, identity }: RouteCall<Identity>) => {
    if (!identity) return;
    const read = await readGraphQLBody(request, response, maxBodyBytes);
    if (!read) return;
    const createContext = async () => options.createContext({ identity, requestId, logger: logger.child({ requestId }) });
    await executeApolloRequest(apollo, request, response, read.body, createContext);
  };

  const shell = createHttpServerShell({
    port: options.port,
    host: options.host,
    logger,
    checkReady: options.checkReady,
    drainMs: options.drainMs,
    metrics,
    ...(options.metricsExposure ? { metricsExposure: options.metricsExposure } : {}),
    door: (request, response, requestId, refuse) => options.identity.admit(request, response, requestId, refuse),
    routes: [
      { path: "/graphql", access: "identified", handle: handleGraphQL },
      { path: "/", access: "identified", handle: handleGraphQL },
      ...(options.routes ?? []),
    ],
  });
  const httpServer = shell.httpServer;
  const base = await shell.listen();
  const url = `${base}/graphql`;
  const metricsUrl = shell.metricsUrl as string;
  logger.info({ url, metricsUrl }, `${options.name} subgraph listening`);

  let closing: Promise<void> | undefined;
  return {
    url,
    httpServer,
    metrics,
    metricsUrl,
    operationChecks,
    close: () => {
      closing ??= (async () => {
        await shell.close();
        await apollo.stop();
      })();
      return closing;
    },
  };
}

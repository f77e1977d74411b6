import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import type { GraphQLDataSource } from "@apollo/gateway";
import { GRAPHQL_TRANSPORT_WS_PROTOCOL } from "graphql-ws";
import { WebSocketServer } from "ws";
import { SupergraphReloadedError } from "@compliance-graph/errors";
import type { InternalTokenMinter } from "@compliance-graph/identity";
import { clientAddress, type Logger } from "@compliance-graph/process-shell";
import type { OperationChecks } from "@compliance-graph/graphql-execution";
import type { AccessTokenVerifier } from "../authentication/access-token-verifier.js";
import type { GatewayMetrics } from "../gateway-metrics.js";
import type { QuotaDoor } from "../quotas/quota-door.js";
import { FederatedSubscriptions } from "./federated-subscriptions.js";
import { createGraphQLTransportWsHandler } from "./graphql-transport-ws-handler.js";
import { createLegacyGraphQLWsHandler, legacyGraphQLWsProtocol } from "./legacy-graphql-ws-handler.js";
import { SubgraphSocketPool } from "./subgraph-socket-pool.js";
import { SubscriptionCloseCode } from "./subscription-close-code.js";
import type { SubscriptionConnection, SubscriptionService } from "./subscription-connection.js";
import { defaultSubscriptionLimits, type SubscriptionLimits } from "./subscription-limits.js";
import { SubscriptionPlanner } from "./subscription-planner.js";
import { isRefusal, SubscriptionQuota } from "./subscription-quota.js";
import type { OperationUsage } from "../usage/operation-usage.js";

export interface SubscriptionServerOptions {
  verifier: AccessTokenVerifier;
  mint: InternalTokenMinter;
  /** The gateway's `buildService`: subgraph data sources for the rest of each plan. */
  buildService: (definition: { name: string; url: string }) => GraphQLDataSource;
  /** `SUBGRAPH_<NAME>_URL` overrides of the supergraph's routing URLs. */
  subgraphUrls: Record<string, string>;
  /** The checks of an operation, the very ones the HTTP lane runs as plugins (see `prepareOperation`). */
  lane: Pick<OperationChecks, "limits" | "checks">;
  limits?: Partial<SubscriptionLimits>;
  /** Proxies in front of the gateway whose `x-forwarded-for` entries name the client (see `clientAddress`). @default 0 */
  trustedProxyHops?: number;
  logger: Logger;
  metrics?: GatewayMetrics;
  /** Requests and cost per client and subject, as over HTTP (quotas/). */
  quotas?: QuotaDoor | undefined;
  /** Usage recording for the registry's checks, as over HTTP (usage/); none when undefined. */
  usage?: OperationUsage | undefined;
}

export interface SubscriptionServer {
  /** Serves WebSocket upgrades at `/graphql` and `/graphql-ws` of the gateway's HTTP server. */
  attach(httpServer: Server): void;
  /**
   * A supergraph was loaded. After the first, running subscriptions end with SERVICE_UNAVAILABLE
   * (`reason: "SUPERGRAPH_RELOADED"`): their plans belong to the previous supergraph.
   */
  updateSupergraph(supergraphSdl: string): void;
  readonly stats: { connections: number; shared: number; upstreamConnections: number };
  close(): Promise<void>;
}

/** Paths that accept WebSocket upgrades. */
export const subscriptionPaths = ["/graphql", "/graphql-ws"];

const reloadedErrors = [new SupergraphReloadedError().toJSON()];

/**
 * Subscriptions at the gateway. `@apollo/gateway` cannot execute them, so the gateway does: each
 * subscription is validated, authorized and planned with Apollo's query planner against the
 * supergraph being served, its primary fetch is subscribed at the owning subgraph over
 * graphql-transport-ws, and the rest of the plan runs per event (see `executeSubscriptionEvent`).
 * Both subprotocols are accepted, chosen by the client's `Sec-WebSocket-Protocol`.
 */
export function createSubscriptionServer(options: SubscriptionServerOptions): SubscriptionServer {
  const limits = { ...defaultSubscriptionLimits, ...options.limits };
  const { logger } = options;
  const pool = new SubgraphSocketPool({ mint: options.mint, keepAliveMs: limits.keepAliveMs });
  const { metrics } = options;
  const subscriptions = new FederatedSubscriptions({
    pool,
    buildService: options.buildService,
    maxEventsInFlight: limits.maxEventsInFlight,
    resumeWindowMs: limits.resumeWindowMs,
    logger,
    metrics,
  });
  let planner: SubscriptionPlanner | undefined;
  const connections = new Set<SubscriptionConnection>();
  const quota = new SubscriptionQuota(limits);
  const service: SubscriptionService = {
    verifier: options.verifier,
    planner: () => planner,
    subscriptions,
    limits,
    lane: options.lane,
    logger,
    metrics,
    connections,
    quota,
    quotas: options.quotas,
    usage: options.usage,
  };
  const handleModern = createGraphQLTransportWsHandler(service);
  const handleLegacy = createLegacyGraphQLWsHandler(service);

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: limits.maxMessageBytes,
    handleProtocols: (protocols) => {
      if (protocols.has(GRAPHQL_TRANSPORT_WS_PROTOCOL)) return GRAPHQL_TRANSPORT_WS_PROTOCOL;
      if (protocols.has(legacyGraphQLWsProtocol)) return legacyGraphQLWsProtocol;
      return false;
    },
  });
  wss.on("connection", (socket, request: IncomingMessage) => {
    if (socket.protocol !== GRAPHQL_TRANSPORT_WS_PROTOCOL && socket.protocol !== legacyGraphQLWsProtocol) {
      return socket.close(SubscriptionCloseCode.SubprotocolNotAcceptable, "Subprotocol not acceptable: use graphql-transport-ws or graphql-ws");
    }
    // Counted from the upgrade on, before any token is read: an address needs no token to hold sockets.
    const address = clientAddress(request, options.trustedProxyHops ?? 0);
    const admitted = quota.admitSocket(address);
    if (isRefusal(admitted)) {
      metrics?.subscriptionRefusals.inc({ limit: admitted.limit });
      const replicaFull = admitted.limit === "maxConnections";
      return socket.close(
        replicaFull ? SubscriptionCloseCode.TryAgainLater : SubscriptionCloseCode.TooManyConnections,
        replicaFull ? "Try again later" : "Too many connections",
      );
    }
    socket.once("close", () => admitted.release());
    if (socket.protocol === GRAPHQL_TRANSPORT_WS_PROTOCOL) return handleModern(socket, request, address);
    return handleLegacy(socket, address);
  });

  // Counted when scraped, from the sockets themselves: nothing to keep in step.
  if (metrics) {
    const tally = <T>(items: Iterable<T>, protocolOf: (item: T) => string, countOf: (item: T) => number) => {
      const counts = new Map<string, number>();
      for (const item of items) counts.set(protocolOf(item), (counts.get(protocolOf(item)) ?? 0) + countOf(item));
      return counts;
    };
    metrics.countSockets = () =>
      tally(
        wss.clients,
        (socket) => socket.protocol || "none",
        () => 1,
      );
    metrics.countSubscriptions = () =>
      tally(
        connections,
        (connection) => connection.protocol,
        (connection) => connection.runningSubscriptions,
      );
  }

  let server: Server | undefined;
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? "/").split("?")[0] ?? "/";
    if (!subscriptionPaths.includes(path)) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n");
      return;
    }
    wss.handleUpgrade(request, socket, head, (webSocket) => wss.emit("connection", webSocket, request));
  };

  return {
    attach(httpServer) {
      server = httpServer;
      httpServer.on("upgrade", onUpgrade);
    },
    updateSupergraph(supergraphSdl) {
      let next: SubscriptionPlanner;
      try {
        next = new SubscriptionPlanner(supergraphSdl, options.subgraphUrls);
      } catch (error) {
        logger.error({ err: error }, "the supergraph cannot serve subscriptions; keeping the previous one");
        return;
      }
      const previous = planner;
      planner = next;
      if (previous) subscriptions.endAll(reloadedErrors);
    },
    get stats() {
      return { connections: wss.clients.size, ...subscriptions.stats };
    },
    async close() {
      server?.off("upgrade", onUpgrade);
      for (const client of wss.clients) client.close(SubscriptionCloseCode.GoingAway, "Going away");
      subscriptions.endAll();
      await pool.close();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const client of wss.clients) client.terminate();
    },
  };
}

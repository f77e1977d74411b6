import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { InternalServerError, isConnectionFailure, isStatementTimeout, ServiceUnavailableError } from "@compliance-graph/errors";
import { closeHttpServer, shutdownDrainMs } from "./close-http-server.js";
import { connectionLimitsFromEnv, type ConnectionLimits } from "./connection-limits.js";
import { createBoundedHttpServer } from "./create-bounded-http-server.js";
import type { Logger } from "./logger.js";
import { sendMetrics } from "./metrics/send-metrics.js";
import { startMetricsServer, type MetricsExposure } from "./metrics/start-metrics-server.js";
import type { ServiceMetrics } from "./metrics/service-metrics.js";
import { requestIdFrom, requestIdHeader } from "./request-id.js";
import { requestTargetOf, RouteTable, routeLabelOf, type RouteDefinition, type RouteDoor } from "./route-table.js";
import { tracedRequest } from "./tracing/traced-request.js";
import { sendGraphQLError, sendJson } from "./send-json.js";

/** Optional dependencies that fail while the deployable still serves, named for the operator (never a URL). */
export interface ReadinessReport {
  degraded: string[];
}

export interface HttpServerShellOptions<Identity = unknown> {
  /** TCP port; 0 picks a free one. */
  port: number;
  /** @default "127.0.0.1" */
  host?: string;
  logger: Logger;
  /**
   * Resolves when the deployable can serve; rejects (with the reason, for the log) otherwise. It
   * may resolve with the optional parts that are failing (a chain connection): still ready (200),
   * since requests are served, but `{ status: "degraded", degraded: [...] }` for the operator.
   */
  checkReady: () => Promise<void | ReadinessReport>;
  /** The deployable's routes (see `RouteTable`: an exact path wins, else the longest prefix; their order does not matter). */
  routes: readonly RouteDefinition<Identity>[];
  /** Who calls an `identified` route: the deployable's identity door, asked by the shell before the route's handler. */
  door?: RouteDoor<Identity>;
  /** How long `close` lets requests in flight finish. @default SHUTDOWN_DRAIN_SECONDS or 10_000 // milliseconds */
  drainMs?: number;
  /** Counts every request and serves `GET /metrics`, where `metricsExposure` says. */
  metrics?: ServiceMetrics;
  /** A port of its own for `/metrics` (`METRICS_PORT`). @default this server's port */
  metricsExposure?: MetricsExposure;
  /** Header and request deadlines, connections per address (`HTTP_*`), for this listener and the metrics one. @default connectionLimitsFromEnv() */
  connectionLimits?: ConnectionLimits;
}

export interface HttpServerShell {
  httpServer: Server;
  /** Starts listening (and the metrics listener, if any); resolves with `http://host:port`. */
  listen(): Promise<string>;
  /** Where Prometheus scrapes this deployable; known once `listen` resolved. */
  readonly metricsUrl: string | undefined;
  /** Connections from `address` open right now (the per-address cap's count). */
  connectionsFrom(address: string): number;
  /** Stops taking connections and drains (see `closeHttpServer`); answers from then on carry `Connection: close`. */
  close(): Promise<void>;
}

/** The shell's own paths, each its own metric label. */
const builtInRoutes = new Set(["/health/live", "/health/ready", "/metrics"]);

/**
 * The HTTP server every deployable runs, gateway and subgraphs alike: a request id on every answer,
 * `/health/live` and `/health/ready`, `/metrics` when served here, the deployable's routes, a 404
 * for the rest, and a last
 * answer for anything that escapes a route (503 when a dependency is unreachable, else a masked
 * 500, never a stack or a message of a library), then listen and a draining close.
 */
export function createHttpServerShell<Identity = unknown>(options: HttpServerShellOptions<Identity>): HttpServerShell {
  const { logger } = options;
  const metricsPort = options.metricsExposure?.port;
  let metricsServer: Awaited<ReturnType<typeof startMetricsServer>> | undefined;
  let metricsUrl: string | undefined;
  const connectionLimits = options.connectionLimits ?? connectionLimitsFromEnv();
  const table = new RouteTable(options.routes, options.door);
  const bounded = createBoundedHttpServer((request, response) => void handle(request, response), {
    limits: connectionLimits,
    onRefused: (address) => {
      options.metrics?.httpConnectionsRefused.inc();
      logger.debug({ address }, "connection refused: too many from this address");
    },
  });
  const httpServer = bounded.server;
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const requestId = requestIdFrom(request.headers);
    response.setHeader(requestIdHeader, requestId);
    const started = performance.now();
    // The one place a request's path is parsed: routes get it, and its query, from here.
    const { path, query } = requestTargetOf(request);
    const match = table.match(path);
    const route = builtInRoutes.has(path) ? path : match ? routeLabelOf(match.route) : "other";
    let ms = 0;
    await tracedRequest(request, response, route, async () => {
      await answer(request, response, path, query, match, requestId);
      ms = performance.now() - started;
      // Written before the request's span ends, so the line carries the caller's traceId.
      logger.debug({ requestId, method: request.method, path: path.slice(0, 64), status: response.statusCode, ms: Math.round(ms) }, "request");
    });
    options.metrics?.recordHttp(route, request.method, response.statusCode, ms / 1000);
  };
  const answer = async (
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    query: URLSearchParams,
    match: ReturnType<typeof table.match>,
    requestId: string,
  ): Promise<void> => {
    try {
      if (path === "/health/live") return sendJson(response, 200, { status: "live" });
      if (path === "/health/ready") {
        try {
          const report = await options.checkReady();
          if (report && report.degraded.length > 0) return sendJson(response, 200, { status: "degraded", degraded: report.degraded });
          return sendJson(response, 200, { status: "ready" });
        } catch (error) {
          logger.warn({ err: error }, "readiness check failed");
          return sendJson(response, 503, { status: "unavailable" });
        }
      }
      if (path === "/metrics" && options.metrics && metricsPort === undefined) return await sendMetrics(options.metrics, response);
      if (match) return await table.serve(match, request, response, requestId, path, query);
      return sendJson(response, 404, { error: "not found" });
    } catch (error) {
      if (response.headersSent) return void response.destroy();
      if (isConnectionFailure(error) || isStatementTimeout(error)) {
        const unavailable = new ServiceUnavailableError("service");
        return sendGraphQLError(response, 503, unavailable);
      }
      logger.error({ err: error, requestId }, "request failed");
      sendGraphQLError(response, 500, new InternalServerError());
    }
  };
  // Longer than the usual load balancer idle timeout (60 s), so the balancer closes first.
  httpServer.keepAliveTimeout = 65_000;
  return {
    httpServer,
    get metricsUrl() {
      return metricsUrl;
    },
    listen: async () => {
      const base = await new Promise<string>((resolve, reject) => {
        httpServer.once("error", reject);
        httpServer.listen(options.port, options.host ?? "127.0.0.1", () => {
          const address = httpServer.address() as AddressInfo;
          const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
          resolve(`http://${host}:${address.port}`);
        });
      });
      if (options.metrics && options.metricsExposure && metricsPort !== undefined) {
        metricsServer = await startMetricsServer(options.metrics, { ...options.metricsExposure, port: metricsPort }, connectionLimits);
      }
      metricsUrl = metricsServer?.url ?? (options.metrics ? `${base}/metrics` : undefined);
      return base;
    },
    connectionsFrom: (address) => bounded.connectionsFrom(address),
    close: async () => {
      bounded.drain();
      await closeHttpServer(httpServer, options.drainMs ?? shutdownDrainMs());
      await metricsServer?.close();
    },
  };
}

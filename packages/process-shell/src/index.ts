/** The process shell: what every deployable's process needs around its work, GraphQL or not. */
export { createLogger, type Logger } from "./logger.js";
export { readJsonBody, BodyTooLargeError, MalformedBodyError } from "./read-json-body.js";
export { requestIdFrom, requestIdHeader } from "./request-id.js";
export { sendGraphQLError, sendJson } from "./send-json.js";
export { onShutdownSignal, shutdownGraceMs } from "./on-shutdown-signal.js";
export { forwardPathPrefix } from "./forward-path-prefix.js";
export { forwardRequest } from "./forward-request.js";
export { TokenBucketLimiter, type RateDecision, type TokenBucketLimiterOptions } from "./token-bucket-limiter.js";
export { clientAddress } from "./client-address.js";
export { OutageLog } from "./outage-log.js";
export { closeHttpServer, shutdownDrainMs } from "./close-http-server.js";
export { checkConnectionLimits, connectionLimitsFromEnv, defaultConnectionLimits, type ConnectionLimits } from "./connection-limits.js";
export { createBoundedHttpServer, type BoundedHttpServer } from "./create-bounded-http-server.js";
export { createHttpServerShell, type HttpServerShell, type HttpServerShellOptions, type ReadinessReport } from "./http-server-shell.js";
export {
  requestTargetOf,
  RouteTable,
  routeLabelOf,
  type RouteAccess,
  type RouteCall,
  type RouteDefinition,
  type RouteDoor,
  type RouteRefusal,
} from "./route-table.js";
export { startRepeatingJob } from "./start-repeating-job.js";
export { portInUseMessage } from "./port-in-use-message.js";
export { ServiceMetrics, latencyBuckets } from "./metrics/service-metrics.js";
export { BoundedLabel } from "./metrics/bounded-label.js";
export { metricsExposureFromEnv, startMetricsServer, type MetricsExposure } from "./metrics/start-metrics-server.js";
export { isTracingEnabled, projectTracer, startTracing, type Tracing } from "./tracing/start-tracing.js";
export { inSpanContext } from "./tracing/in-span-context.js";
export { tracedRequest } from "./tracing/traced-request.js";
export { loadStaticPage, type StaticPageFile } from "./static-page/static-page-files.js";
export { staticPageRoute, type StaticPageRouteOptions } from "./static-page/static-page-route.js";

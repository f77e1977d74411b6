import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";
import { BoundedLabel } from "./bounded-label.js";

/** Latency buckets in seconds, from a cache hit to a slow export. */
export const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * One deployable's metrics: its own Prometheus registry (so that deployables sharing a process,
 * as in the tests, never mix their figures), the process metrics prom-client collects, and what
 * every deployable has: HTTP requests and GraphQL operations. Deployables register their own
 * metrics on `registry`. Every label value is bounded: routes come from a fixed list, operation
 * names from a `BoundedLabel`, outcomes from error codes.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly operationNames = new BoundedLabel(100);
  readonly httpRequests: Counter<"route" | "method" | "status">;
  readonly httpRequestSeconds: Histogram<"route">;
  readonly graphqlOperations: Counter<"operation_name" | "operation_type" | "outcome">;
  readonly graphqlOperationSeconds: Histogram<"operation_name" | "operation_type" | "outcome">;
  readonly httpConnectionsRefused: Counter;

  constructor(readonly service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
    // Gauges named like counters, which `promtool check metrics` rejects; the heap, event loop and
    // file descriptor metrics say more about a process than these counts of handles.
    for (const name of ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"]) this.registry.removeSingleMetric(name);
    this.httpRequests = new Counter({
      name: "http_requests_total",
      help: "HTTP requests answered, by route, method and status.",
      labelNames: ["route", "method", "status"],
      registers: [this.registry],
    });
    this.httpRequestSeconds = new Histogram({
      name: "http_request_duration_seconds",
      help: "Time to answer an HTTP request, by route.",
      labelNames: ["route"],
      buckets: latencyBuckets,
      registers: [this.registry],
    });
    this.graphqlOperations = new Counter({
      name: "graphql_operations_total",
      help: "GraphQL operations executed, by operation name (the first 100 distinct, then other), type and outcome (ok or the first error code).",
      labelNames: ["operation_name", "operation_type", "outcome"],
      registers: [this.registry],
    });
    this.graphqlOperationSeconds = new Histogram({
      name: "graphql_operation_duration_seconds",
      help: "Time from receiving a GraphQL operation to its answer, by operation name, type and outcome.",
      labelNames: ["operation_name", "operation_type", "outcome"],
      buckets: latencyBuckets,
      registers: [this.registry],
    });
    this.httpConnectionsRefused = new Counter({
      name: "http_connections_refused_total",
      help: "Connections closed as soon as accepted because their address had HTTP_MAX_CONNECTIONS_PER_ADDRESS open already.",
      registers: [this.registry],
    });
  }

  recordHttp(route: string, method: string | undefined, status: number, seconds: number): void {
    const knownMethod = method && ["GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE"].includes(method) ? method : "other";
    this.httpRequests.inc({ route, method: knownMethod, status: String(status) });
    this.httpRequestSeconds.observe({ route }, seconds);
  }

  /** The text exposition format, and its content type. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

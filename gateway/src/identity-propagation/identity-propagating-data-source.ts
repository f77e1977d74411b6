/**
 * Identity propagation to the subgraphs. Threats: a client smuggling identity headers (its own
 * `Authorization`, `X-User`, `X-Roles`, ...) through the gateway to a subgraph that might trust
 * them, and a subgraph receiving the caller's raw access token, which it could replay elsewhere.
 * Every subgraph request is built with only the headers set here: the caller's headers are never
 * copied, and the one credential is an internal token the gateway signs for this subgraph alone.
 */
import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from "@apollo/gateway";
import { context as traceContext, propagation } from "@opentelemetry/api";
import { isConnectionFailure, ServiceUnavailableError } from "@compliance-graph/errors";
import type { InternalTokenMinter } from "@compliance-graph/identity";
import { requestIdHeader, type OutageLog } from "@compliance-graph/process-shell";
import type { GatewayContext } from "../gateway-context.js";
import type { GatewayMetrics } from "../gateway-metrics.js";

type Fetcher = RemoteGraphQLDataSource["fetcher"];
type FetcherResponse = Parameters<RemoteGraphQLDataSource["didEncounterError"]>[2];

/** Headers that carry identity in one setup or another; removed should anything have added them. */
const identityHeaders = ["authorization", "cookie", "proxy-authorization", "x-user", "x-user-id", "x-roles", "x-forwarded-user", "x-auth-request-user", "x-identity"];

export class IdentityPropagatingDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  readonly #subgraph: string;
  readonly #mint: InternalTokenMinter;
  readonly #outages: OutageLog | undefined;
  readonly #metrics: GatewayMetrics | undefined;

  constructor(options: { subgraph: string; url: string; mint: InternalTokenMinter; fetcher: Fetcher; outages?: OutageLog; metrics?: GatewayMetrics }) {
    super({ url: options.url, fetcher: options.fetcher });
    this.#subgraph = options.subgraph;
    this.#mint = options.mint;
    this.#outages = options.outages;
    this.#metrics = options.metrics;
  }

  /** Every fetch, counted by outcome and timed. */
  override async process(options: GraphQLDataSourceProcessOptions<GatewayContext>): ReturnType<RemoteGraphQLDataSource<GatewayContext>["process"]> {
    const started = performance.now();
    let outcome = "error";
    try {
      const response = await super.process(options);
      outcome = response.errors?.length ? "graphql_error" : "ok";
      return response;
    } catch (error) {
      if (error instanceof ServiceUnavailableError) outcome = "unavailable";
      throw error;
    } finally {
      this.#metrics?.subgraphFetches.inc({ subgraph: this.#subgraph, outcome });
      this.#metrics?.subgraphFetchSeconds.observe({ subgraph: this.#subgraph }, (performance.now() - started) / 1000);
    }
  }

  /**
   * A subgraph that cannot be reached (refused, reset, timed out) or says it is unavailable (503,
   * while it drains or its database is down) fails the request with SERVICE_UNAVAILABLE naming the
   * subgraph, never its address; the outage is logged when it starts and when it ends.
   */
  override didEncounterError(error: Error, _request: unknown, response?: FetcherResponse): void {
    if (isConnectionFailure(error) || response?.status === 503) {
      this.#outages?.down(`${this.#subgraph} service`, error);
      throw new ServiceUnavailableError(`${this.#subgraph} service`);
    }
    throw error;
  }

  override async didReceiveResponse({ response }: { response: Awaited<ReturnType<RemoteGraphQLDataSource["process"]>> }) {
    this.#outages?.up(`${this.#subgraph} service`);
    return response;
  }

  override async willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<void> {
    const headers = request.http?.headers;
    if (!headers) return;
    for (const name of identityHeaders) headers.delete(name);
    // Requests the gateway makes on its own (no caller) carry no identity and are refused.
    const { identity, requestId } = (context ?? {}) as Partial<GatewayContext>;
    if (identity) headers.set("authorization", `Bearer ${await this.#mint(identity, this.#subgraph)}`);
    if (requestId) headers.set(requestIdHeader, requestId);
    // The trace continues at the subgraph (W3C traceparent of the active fetch span; nothing while tracing is off).
    propagation.inject(traceContext.active(), headers, { set: (carrier, key, value) => carrier.set(key, value) });
  }
}

/**
 * Identity propagation to the subgraphs. Threats: a client smuggling identity headers (its own
 * `Authorization`, `X-User`, `X-Roles`, ...) through the gateway to a subgraph that might trust
 * them, and a subgraph receiving the caller's raw access token, which it could replay elsewhere.
 * Every subgraph request is built with only the headers set here: the caller's headers are never
 * copied, and the one credential is an internal token the gateway signs for this subgraph alone.
 */
import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from "@apollo/gateway";
import type { GatewayCacheHint } from "@apollo/server-gateway-interface";
import { context as traceContext, propagation } from "@opentelemetry/api";
import { isConnectionFailure, ServiceUnavailableError } from "@compliance-graph/errors";
import type { InternalTokenMinter } from "@compliance-graph/identity";
import { requestIdHeader, type OutageLog } from "@compliance-graph/process-shell";
import type { GatewayContext } from "../gateway-context.js";
import type { GatewayMetrics } from "../gateway-metrics.js";
import { GraphQLDataSourceRequestKind } from "../execution/apollo-gateway-internals.js";

type Fetcher = RemoteGraphQLDataSource["fetcher"];
type FetcherResponse = Parameters<RemoteGraphQLDataSource["didEncounterError"]>[2];

/** Headers that carry identity in one setup or another; removed should anything have added them. */
const identityHeaders = [
  "authorization",
  "cookie",
  "proxy-authorization",
  "x-user",
  "x-user-id",
  "x-roles",
  "x-forwarded-user",
  "x-auth-request-user",
  "x-identity",
];

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
      const response = await this.#send(options);
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
   * `RemoteGraphQLDataSource.process` (of @apollo/gateway 2.14) for the gateway's own operations,
   * with the headers of `willSendRequest` below, and without what it builds for every call that
   * nothing here reads: a node-fetch `Headers` and `Request`, the body re-serialising the
   * operation's text. The operation text, which never changes for a plan's fetch, is escaped once
   * (`bodyPrefix`). The answer, its errors and the cache hint are as `process` makes them; anything
   * else (health checks, persisted queries, a request that brings its own HTTP settings) goes to
   * `process` itself.
   */
  async #send(options: GraphQLDataSourceProcessOptions<GatewayContext>): ReturnType<RemoteGraphQLDataSource<GatewayContext>["process"]> {
    const { request } = options;
    if (
      options.kind !== GraphQLDataSourceRequestKind.INCOMING_OPERATION ||
      this.apq ||
      request.http ||
      request.extensions !== undefined ||
      !request.query ||
      request.variables === undefined
    ) {
      return super.process(options);
    }
    const context = options.context;
    const { identity, requestId } = (context ?? {}) as Partial<GatewayContext>;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (identity) headers.authorization = `Bearer ${await this.#mint(identity, this.#subgraph)}`;
    if (requestId) headers[requestIdHeader] = requestId;
    propagation.inject(traceContext.active(), headers);
    const operationName = request.operationName === undefined ? "" : `,"operationName":${JSON.stringify(request.operationName)}`;
    const body = `${bodyPrefix(request.query)},"variables":${JSON.stringify(request.variables)}${operationName}}`;
    let answer: FetcherResponse | undefined;
    let response: Awaited<ReturnType<RemoteGraphQLDataSource["process"]>>;
    try {
      answer = await this.fetcher(this.url, { method: "POST", headers, body });
      if (!answer.ok) throw await this.errorFromResponse(answer);
      const parsed = await this.parseBody(answer);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
        throw new Error(`Expected JSON response body, but received: ${String(parsed)}`);
      response = { ...parsed, http: answer };
    } catch (error) {
      this.didEncounterError(error as Error, undefined, answer);
      throw error;
    }
    const processed = await this.didReceiveResponse({ response });
    const policy = options.incomingRequestContext.overallCachePolicy;
    if (this.honorSubgraphCacheControlHeader && policy && "restrict" in policy) policy.restrict(cacheHint(response.http?.headers.get("cache-control")));
    return processed;
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

/** `{"query":"<the operation, escaped>"`, made once per operation text (a plan's fetches are few and fixed). */
const bodyPrefixes = new Map<string, string>();
function bodyPrefix(query: string): string {
  let prefix = bodyPrefixes.get(query);
  if (prefix === undefined) {
    prefix = `{"query":${JSON.stringify(query)}`;
    // Bounded: a busy gateway's distinct subgraph operations are those of its distinct plans.
    if (bodyPrefixes.size >= 10_000) bodyPrefixes.clear();
    bodyPrefixes.set(query, prefix);
  }
  return prefix;
}

/** The cache hint of a subgraph's `cache-control`, as `RemoteGraphQLDataSource` reads it (parseCacheControlHeader.ts). */
function cacheHint(header: string | null | undefined): GatewayCacheHint {
  const parsed: Record<string, string | true> = {};
  if (header) {
    for (const part of header.trim().split(/\s*,\s*/)) {
      const [key, value] = part.split(/\s*=\s*/, 2);
      parsed[key!] = value === undefined ? true : value.replace(/^"|"$/g, "");
    }
  }
  const hint: GatewayCacheHint = { maxAge: 0 };
  const maxAge = parsed["max-age"];
  if (typeof maxAge === "string" && /^[0-9]+$/.test(maxAge)) hint.maxAge = +maxAge;
  if (parsed.private === true) hint.scope = "PRIVATE";
  if (parsed.public === true) hint.scope = "PUBLIC";
  return hint;
}

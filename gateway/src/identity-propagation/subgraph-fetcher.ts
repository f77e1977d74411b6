import type { RemoteGraphQLDataSource } from "@apollo/gateway";
import { Agent } from "undici";
import { deduplicateInflightQueries } from "./deduplicate-inflight-queries.js";
import { SubgraphAnswer } from "./subgraph-answer.js";

type Fetcher = RemoteGraphQLDataSource["fetcher"];

export interface SubgraphFetcherOptions {
  /** Most open connections per subgraph origin. @default 128 */
  connections?: number;
  /** How long an idle connection is kept for reuse. @default 60_000 // 60 seconds */
  keepAliveTimeoutMs?: number;
  /**
   * `GATEWAY_SUBGRAPH_TIMEOUT_MS`: longest wait for a subgraph's response headers, and then
   * between two pieces of its body; past it the call fails (SERVICE_UNAVAILABLE naming the
   * subgraph). @default 30_000 // 30 seconds
   */
  headersTimeoutMs?: number;
  /** Share one call among identical queries in flight (see `deduplicateInflightQueries`). @default true */
  deduplicateQueries?: boolean;
}

export interface SubgraphFetcher {
  fetcher: Fetcher;
  close(): Promise<void>;
}

/**
 * The HTTP client the gateway uses for subgraph calls: an undici pool with keep-alive, so a busy
 * gateway reuses connections instead of paying a TCP handshake per subgraph fetch. Calls go through
 * undici's `request` rather than its WHATWG `fetch`: a subgraph call needs none of fetch's
 * machinery (CORS, redirects, body streams, the Request object), and skipping it is a measurable
 * part of a gateway request (docs/benchmark-method.md). The answer is handed back as a
 * `SubgraphAnswer`: plain values with the part of a `Response` that `RemoteGraphQLDataSource` reads.
 */
export function createSubgraphFetcher(options: SubgraphFetcherOptions = {}): SubgraphFetcher {
  const agent = new Agent({
    connections: options.connections ?? 128,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 60_000,
    headersTimeout: options.headersTimeoutMs ?? 30_000,
    // A subgraph that sends its headers and then stalls is as silent as one that sends nothing.
    bodyTimeout: options.headersTimeoutMs ?? 30_000,
  });
  const send = async (url: string, init?: Record<string, unknown>) => {
    const target = new URL(url);
    const answer = await agent.request({
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: ((init?.method as string | undefined) ?? "GET") as "GET",
      headers: init?.headers as Record<string, string> | undefined,
      body: init?.body as string | undefined,
    });
    const headers = new Map<string, string>();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (Array.isArray(value)) headers.set(name, value.join(", "));
      else if (value !== undefined) headers.set(name, value);
    }
    return new SubgraphAnswer(answer.statusCode, headers, await answer.body.text());
  };
  const fetcher = (options.deduplicateQueries === false ? send : deduplicateInflightQueries(send)) as unknown as Fetcher;
  return { fetcher, close: () => agent.close() };
}

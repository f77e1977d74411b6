import type { RemoteGraphQLDataSource } from "@apollo/gateway";
import { Agent, fetch as undiciFetch } from "undici";

type Fetcher = RemoteGraphQLDataSource["fetcher"];

export interface SubgraphFetcherOptions {
  /** Most open connections per subgraph origin. @default 128 */
  connections?: number;
  /** How long an idle connection is kept for reuse. @default 60_000 // 60 seconds */
  keepAliveTimeoutMs?: number;
  /** Longest wait for a subgraph's response headers. @default 30_000 // 30 seconds */
  headersTimeoutMs?: number;
}

export interface SubgraphFetcher {
  fetcher: Fetcher;
  close(): Promise<void>;
}

/**
 * The HTTP client the gateway uses for subgraph calls: an undici pool with keep-alive, so a busy
 * gateway reuses connections instead of paying a TCP handshake per subgraph fetch.
 */
export function createSubgraphFetcher(options: SubgraphFetcherOptions = {}): SubgraphFetcher {
  const agent = new Agent({
    connections: options.connections ?? 128,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 60_000,
    headersTimeout: options.headersTimeoutMs ?? 30_000,
  });
  const fetcher = ((url: string, init?: Record<string, unknown>) => undiciFetch(url, { ...init, dispatcher: agent } as never)) as unknown as Fetcher;
  return { fetcher, close: () => agent.close() };
}

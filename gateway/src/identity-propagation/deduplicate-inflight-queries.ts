import { requestIdHeader } from "@compliance-graph/process-shell";
import type { SubgraphAnswer } from "./subgraph-answer.js";

type FetchFunction = (url: string, init?: Record<string, unknown>) => Promise<SubgraphAnswer>;

/**
 * Shares one subgraph call among identical subgraph queries in flight at the same moment: same
 * URL, same body (operation and variables), same headers apart from the request id, and so the
 * same internal token, that is the same caller identity. A burst of callers asking for the same
 * page costs the subgraph and its database one query instead of one each; Apollo Router
 * (`deduplicate_query`) and Hive Gateway do the same.
 *
 * Why it is safe: only queries are shared (the gateway writes subgraph operations itself, so a
 * body that starts with `{"query":"query` or `{"query":"{` is a query; anything else, mutations
 * included, goes out on its own), a response is shared only while it is in flight (nothing is
 * cached after it arrives), and because the internal token is part of the key, callers with
 * different identities or roles never share a response. Waiting callers share one immutable
 * `SubgraphAnswer`, whose `json()` parses anew for each, so the gateway may change one caller's
 * result without touching another's. The one
 * visible difference: the subgraph logs only the first caller's request id, and with tracing on,
 * only the first caller's trace holds the subgraph's spans (each caller's own `traceparent` would
 * otherwise make every call unique and end the sharing).
 */
export function deduplicateInflightQueries(fetch: FetchFunction): FetchFunction {
  const inflight = new Map<string, Promise<SubgraphAnswer>>();
  return async (url, init) => {
    const body = init?.body;
    if (typeof body !== "string" || !(body.startsWith('{"query":"query') || body.startsWith('{"query":"{'))) return fetch(url, init);
    const key = `${url}\n${headerKey(init?.headers)}\n${body}`;
    let shared = inflight.get(key);
    if (!shared) {
      shared = fetch(url, init);
      inflight.set(key, shared);
      const forget = () => inflight.delete(key);
      shared.then(forget, forget);
    }
    return shared;
  };
}

/** Headers that differ per caller and select nothing: the request id and the trace context. */
const perCallerHeaders = new Set([requestIdHeader, "traceparent", "tracestate"]);

/** The headers that select a response: all but those that differ per caller. */
function headerKey(headers: unknown): string {
  if (!headers || typeof headers !== "object") return "";
  const entries =
    headers instanceof Map || Symbol.iterator in headers ? [...(headers as Iterable<[string, string]>)] : Object.entries(headers as Record<string, string>);
  return entries
    .filter(([name]) => !perCallerHeaders.has(name.toLowerCase()))
    .map(([name, value]) => `${name.toLowerCase()}:${value}`)
    .sort()
    .join("\n");
}

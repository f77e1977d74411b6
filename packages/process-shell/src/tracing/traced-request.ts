import type { IncomingMessage, ServerResponse } from "node:http";
import { propagation, SpanKind, SpanStatusCode, ROOT_CONTEXT } from "@opentelemetry/api";
import { inSpanContext } from "./in-span-context.js";
import { isTracingEnabled, projectTracer } from "./start-tracing.js";

/**
 * Runs the answer to one HTTP request inside a server span that continues the caller's trace
 * (W3C `traceparent`), so everything the answer does (operations, fetches, SQL) becomes its child.
 * `route` is the bounded route name, never the raw path (which may carry a credential).
 */
export async function tracedRequest(request: IncomingMessage, response: ServerResponse, route: string, answer: () => Promise<void>): Promise<void> {
  if (!isTracingEnabled()) return answer();
  const parent = propagation.extract(ROOT_CONTEXT, request.headers);
  const span = projectTracer().startSpan(
    `${request.method ?? "GET"} ${route}`,
    { kind: SpanKind.SERVER, attributes: { "http.request.method": request.method ?? "GET", "http.route": route } },
    parent,
  );
  try {
    await inSpanContext(span, parent, answer);
  } finally {
    span.setAttribute("http.response.status_code", response.statusCode);
    if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }
}

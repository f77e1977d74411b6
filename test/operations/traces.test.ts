import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTracing, type Tracing } from "@compliance-graph/process-shell";
import { createTestDatabase, pollUntil } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
}

/** An OTLP/HTTP trace receiver (JSON encoding): what a collector would be, collecting every span sent. */
async function startReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      if (request.url === "/v1/traces" && request.method === "POST") {
        const payload = JSON.parse(body) as {
          resourceSpans: {
            scopeSpans: { spans: (Omit<ReceivedSpan, "attributes"> & { attributes?: { key: string; value: Record<string, unknown> }[] })[] }[];
          }[];
        };
        for (const resource of payload.resourceSpans) {
          for (const scope of resource.scopeSpans) {
            for (const span of scope.spans) {
              const attributes = Object.fromEntries((span.attributes ?? []).map(({ key, value }) => [key, Object.values(value)[0]]));
              spans.push({
                traceId: span.traceId,
                spanId: span.spanId,
                ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
                name: span.name,
                attributes,
              });
            }
          }
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, spans, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("traces across the federation, exported with OTLP", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let tracing: Tracing;
  let stack: Stack;
  let token: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    // One process holds the whole stack here, so one tracer provider serves all three deployables;
    // the trace still crosses real HTTP hops, where only the traceparent header carries it.
    tracing = startTracing("compliance-graph-test", { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER_ARG: "1" });
    const databaseUrl = await createTestDatabase("traces");
    stack = await startStack({ realAopd: { databaseUrl, seedDemoProofs: 10 } });
    token = await stack.fetchToken();
  });
  afterAll(async () => {
    await stack?.close();
    await tracing?.shutdown();
    await receiver?.close();
  });

  it("continues the client's trace: one query across both subgraphs is one trace, each hop the child of the one that called it", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const clientSpanId = "00f067aa0ba902b7";
    const response = await fetch(stack.gateway.url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}`, traceparent: `00-${traceId}-${clientSpanId}-01` },
      body: JSON.stringify({ query: "query TracedPage { aopd { proofs(limit: 2) { id travelRuleTransfers { direction } } } }" }),
    });
    expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();

    const inTrace = () => receiver.spans.filter((span) => span.traceId === traceId);
    // Spans arrive in batches (every second), children before their parents. The trace is whole
    // once all three server spans are in and every span's parent is too.
    const whole = (spans: ReceivedSpan[]) => {
      const ids = new Set(spans.map((span) => span.spanId));
      return (
        spans.filter((span) => span.name === "POST /graphql").length === 3 &&
        spans.some((span) => span.name === "db.query") &&
        spans.every((span) => span.parentSpanId === clientSpanId || ids.has(span.parentSpanId!))
      );
    };
    const spans = await pollUntil("the whole trace", async () => inTrace(), whole, { timeoutMs: 20_000 });
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const ancestors = (span: ReceivedSpan) => {
      const chain: ReceivedSpan[] = [];
      for (
        let parent = span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
        parent;
        parent = parent.parentSpanId ? byId.get(parent.parentSpanId) : undefined
      )
        chain.push(parent);
      return chain;
    };

    // Every span of the request is in the client's trace, under the gateway's server span.
    const gatewayServer = spans.find((span) => span.parentSpanId === clientSpanId);
    expect(gatewayServer?.name).toBe("POST /graphql");
    expect(spans.filter((span) => span.parentSpanId !== clientSpanId).every((span) => ancestors(span).includes(gatewayServer!))).toBe(true);

    // Gateway -> subgraph: each subgraph's server span is the child of a fetch span of the gateway.
    const subgraphServers = spans.filter((span) => span.name === "POST /graphql" && span !== gatewayServer);
    expect(subgraphServers.length).toBe(2);
    for (const server of subgraphServers) expect(byId.get(server.parentSpanId!)?.name).toBe("gateway.fetch");

    // Subgraph -> database: SQL statements under aopd's resolver, with their text and no values.
    const resolver = spans.find((span) => span.name === "resolve Aopd.proofs");
    expect(resolver && subgraphServers.includes(ancestors(resolver).find((span) => span.name === "POST /graphql")!)).toBe(true);
    const statements = spans.filter((span) => span.name === "db.query" && ancestors(span).includes(resolver!));
    expect(statements.length).toBeGreaterThanOrEqual(1);
    expect(String(statements[0]?.attributes["db.query.text"])).toMatch(/select .* from "aopd_proof"/i);
    expect(String(statements[0]?.attributes["db.query.text"])).toMatch(/limit \$\d+/i);
  });
});

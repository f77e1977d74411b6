import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpServerShell, type HttpServerShell } from "../src/http-server-shell.js";
import { createLogger } from "../src/logger.js";
import { startTracing, type Tracing } from "../src/tracing/start-tracing.js";

interface LogLine {
  msg: string;
  requestId?: string;
  traceId?: string;
  status?: number;
}

/**
 * The one line each request leaves in the log joins the caller's trace: an operator who follows a
 * trace id from a client or another service finds the request's line by it.
 */
describe("the per-request log line", () => {
  let receiver: Server;
  let tracing: Tracing;
  let shell: HttpServerShell;
  let base: string;
  const lines: LogLine[] = [];
  const waiting: { accept: (line: LogLine) => boolean; resolve: (line: LogLine) => void }[] = [];

  /** The next line `accept`s, written already or yet to come; rejects after 10 seconds. */
  const lineWhere = (accept: (line: LogLine) => boolean) =>
    Promise.race([
      new Promise<LogLine>((resolve) => {
        const found = lines.find(accept);
        if (found) resolve(found);
        else waiting.push({ accept, resolve });
      }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no such log line within 10 s")), 10_000).unref()),
    ]);

  beforeAll(async () => {
    // A collector that takes the spans and says nothing: the spans are not what is tested here.
    receiver = createServer((request, response) => {
      request.resume();
      request.on("end", () => response.writeHead(200, { "content-type": "application/json" }).end("{}"));
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    tracing = startTracing("request-log-test", { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}` });
    const logger = createLogger("probe", "debug", {
      write: (text: string) => {
        const line = JSON.parse(text) as LogLine;
        lines.push(line);
        for (const waiter of waiting.filter((candidate) => candidate.accept(line))) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      },
    });
    shell = createHttpServerShell({
      port: 0,
      logger,
      checkReady: async () => {},
      routes: [{ path: "/*", access: "public", handle: ({ response }) => void response.writeHead(204).end() }],
    });
    base = await shell.listen();
  });
  afterAll(async () => {
    await shell?.close();
    await tracing?.shutdown();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it("carries the caller's trace id, given in traceparent", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const response = await fetch(`${base}/anything`, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, "x-request-id": "traced-request-1" } });
    expect(response.status).toBe(204);
    const line = await lineWhere((candidate) => candidate.msg === "request" && candidate.requestId === "traced-request-1");
    expect(line).toMatchObject({ traceId, status: 204 });
  });

  it("carries a trace id of its own when the caller sent none", async () => {
    await fetch(`${base}/anything`, { headers: { "x-request-id": "untraced-request-1" } });
    const line = await lineWhere((candidate) => candidate.msg === "request" && candidate.requestId === "untraced-request-1");
    expect(line.traceId).toMatch(/^[0-9a-f]{32}$/);
  });
});

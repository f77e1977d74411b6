import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createTcpServer, type Socket } from "node:net";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";

/** Log lines written by a logger, for counting what an outage logs. */
function capturingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  return { logger: pino({ level: "info", base: { service: "gateway" } }, stream), lines };
}

/** A subgraph that takes every request and never answers (its process frozen, its database hung). */
async function startSilentSubgraph(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/graphql`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A subgraph that answers every request as a draining or database-less subgraph does: 503 SERVICE_UNAVAILABLE. */
async function startUnavailableSubgraph(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createHttpServer((_request, response) => {
    response.writeHead(503, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        errors: [{ message: "The database is unavailable; try again shortly.", extensions: { code: "SERVICE_UNAVAILABLE", retryable: true } }],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/graphql`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const query = "{ aopd { proofsCount } }";
const mutation = `mutation { aopd { requestAoppProof(input: { customerId: "SILENT-1", asset: DTI4H95J0R2X }) { portalUrl } } }`;

/**
 * A subgraph that does not answer in time used to reach clients as HTTP 200
 * INTERNAL_SERVER_ERROR "Unexpected error." after 30 s, with a stack logged per request; and a
 * mutation's SERVICE_UNAVAILABLE said `retryable: true`, which duplicates a write that did happen.
 */
describe.each([
  ["does not answer within GATEWAY_SUBGRAPH_TIMEOUT_MS", startSilentSubgraph],
  ["answers SERVICE_UNAVAILABLE", startUnavailableSubgraph],
] as const)("the gateway when aopd %s", (_case, startSubgraph) => {
  let stack: Stack;
  let subgraph: Awaited<ReturnType<typeof startSilentSubgraph>>;
  let token: string;
  const log = capturingLogger();

  beforeAll(async () => {
    subgraph = await startSubgraph();
    stack = await startStack({
      // The committed supergraph (with aopd's mutations); the real aopd runs but the gateway calls the stand-in above.
      realAopd: { databaseUrl: await createTestDatabase("silent"), seedDemoProofs: 0 },
      subgraphUrlOverrides: { aopd: subgraph.url },
      subgraphTimeoutMs: 1_000,
      gatewayLogger: log.logger,
    });
    token = await stack.fetchToken();
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await subgraph?.close();
  });

  it("answers a query SERVICE_UNAVAILABLE naming aopd, retryable, and logs the outage once", async () => {
    for (let i = 0; i < 3; i += 1) {
      const { body } = await stack.query(query, token);
      expect(body.errors?.[0]?.extensions).toMatchObject({ code: "SERVICE_UNAVAILABLE", retryable: true });
      expect(body.errors?.[0]?.message).toContain("aopd");
      expect(JSON.stringify(body)).not.toContain("127.0.0.1");
    }
    expect(log.lines.filter((line) => line.msg === "unexpected error")).toHaveLength(0);
    expect(log.lines.filter((line) => line.msg === "aopd service unavailable")).toHaveLength(1);
  });

  it("answers a mutation SERVICE_UNAVAILABLE with outcome UNKNOWN and without retryable", async () => {
    const { body } = await stack.query(mutation, token);
    const extensions = body.errors?.[0]?.extensions ?? {};
    expect(extensions).toMatchObject({ code: "SERVICE_UNAVAILABLE", outcome: "UNKNOWN" });
    expect(extensions).not.toHaveProperty("retryable");
    expect(body.errors?.[0]?.message).toMatch(/whether this mutation took effect is unknown/);
    expect(log.lines.filter((line) => line.msg === "unexpected error")).toHaveLength(0);
  });
});

import { createServer, connect, type Server, type Socket } from "node:net";
import { Writable } from "node:stream";
import { pino } from "pino";
import { startAopd, type RunningAopd } from "@compliance-graph/aopd";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, freePort } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";

/** Log lines written by a logger, for counting what an outage logs. */
function capturingLogger(service: string) {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  return { logger: pino({ level: "info", base: { service } }, stream), lines };
}

/**
 * A TCP hop between aopd and PostgreSQL that the test can cut and restore: a server restart or a
 * failover as aopd sees it, without touching the PostgreSQL server other tests share.
 */
async function startCuttableProxy(port: number): Promise<{ cut(): Promise<void>; restore(): Promise<void> }> {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(5432, "127.0.0.1");
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
  await listen();
  return {
    cut: async () => {
      await new Promise<void>((resolve) => {
        server?.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
    restore: listen,
  };
}

const outageMessage = /unavailable/;

describe("outages reach clients as SERVICE_UNAVAILABLE, named but without addresses", () => {
  describe("aopd when its database cannot be reached", () => {
    let aopd: RunningAopd;
    let proxy: Awaited<ReturnType<typeof startCuttableProxy>>;
    let port: number;
    const log = capturingLogger("aopd");

    beforeAll(async () => {
      port = await freePort();
      proxy = await startCuttableProxy(port);
      const direct = new URL(await createTestDatabase("outage"));
      direct.port = String(port);
      aopd = await startAopd({
        config: { port: 0, databaseUrl: direct.toString(), expiryIntervalSeconds: 0 },
        insecureDevelopmentIdentity: true,
        logger: log.logger,
      });
    });
    afterAll(async () => {
      await aopd?.close();
      await proxy?.cut();
    });

    const query = async () => {
      const response = await fetch(aopd.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ aopd { proofsCount } }" }),
      });
      return (await response.json()) as { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };
    };
    const ready = async () => (await fetch(new URL("/health/ready", aopd.url))).status;

    it("answers SERVICE_UNAVAILABLE naming the database while it is down, logs the outage once, and serves again once it is back", async () => {
      expect(await query()).toEqual({ data: { aopd: { proofsCount: 0 } } });
      await proxy.cut();
      for (let i = 0; i < 5; i += 1) {
        const { errors } = await query();
        expect(errors?.[0]?.extensions?.code).toBe("SERVICE_UNAVAILABLE");
        expect(errors?.[0]?.message).toBe("The database is unavailable; try again shortly.");
        expect(JSON.stringify(errors)).not.toContain(String(port));
      }
      expect(await ready()).toBe(503);
      expect(log.lines.filter((line) => line.msg === "database unavailable")).toHaveLength(1);
      expect(log.lines.filter((line) => line.msg === "unexpected error")).toHaveLength(0);
      await proxy.restore();
      let answer = await query();
      for (let attempt = 0; attempt < 20 && answer.errors; attempt += 1) answer = await query();
      expect(answer).toEqual({ data: { aopd: { proofsCount: 0 } } });
      expect(await ready()).toBe(200);
      expect(log.lines.filter((line) => line.msg === "database available again")).toHaveLength(1);
    });
  });

  describe("the gateway when a subgraph cannot be reached", () => {
    let stack: Stack;
    let deadPort: number;
    const log = capturingLogger("gateway");

    beforeAll(async () => {
      deadPort = await freePort();
      stack = await startStack({ subgraphUrlOverrides: { trpd: `http://127.0.0.1:${deadPort}/graphql` }, gatewayLogger: log.logger });
    });
    afterAll(async () => {
      await stack?.close();
    });

    it("answers SERVICE_UNAVAILABLE naming the subgraph, never its address, and logs the outage once", async () => {
      const token = await stack.fetchToken();
      for (let i = 0; i < 3; i += 1) {
        const { body } = await stack.query("{ trpd { vasps { name } } }", token);
        expect(body.errors?.[0]?.extensions?.code).toBe("SERVICE_UNAVAILABLE");
        expect(body.errors?.[0]?.message).toMatch(outageMessage);
        expect(body.errors?.[0]?.message).toContain("trpd");
        expect(JSON.stringify(body)).not.toContain(String(deadPort));
        expect(JSON.stringify(body)).not.toContain("127.0.0.1");
      }
      expect(log.lines.filter((line) => line.msg === "trpd service unavailable")).toHaveLength(1);
    });
  });
});

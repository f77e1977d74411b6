import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInternalTokenMinter, createInternalTokenVerifier, generateInternalSigningKey, type InternalTokenMinter } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import { GatewayMetrics } from "../src/gateway-metrics.js";
import { createUsageRecorder } from "../src/usage/usage-recorder.js";

interface Report {
  operationHash: string;
  client: string;
  hour: string;
  count: number;
  coordinates: string[];
}

/** A test peer of the registry's `POST /usage`: verifies the gateway's internal token, keeps the reports, or answers 503 while `down`. */
describe("the usage recorder", () => {
  let server: Server;
  let url: string;
  let mint: InternalTokenMinter;
  const received: Report[] = [];
  const authorizedAs: string[] = [];
  let down = false;

  beforeAll(async () => {
    const key = await generateInternalSigningKey();
    mint = await createInternalTokenMinter({ privateJwk: key.privateJwk });
    const verify = createInternalTokenVerifier({ audience: "registry", publicKeys: [key.publicJwk] });
    server = createServer((request, response) => {
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        if (down) return void response.writeHead(503).end();
        const identity = await verify(request.headers);
        authorizedAs.push(identity.client);
        received.push(...(JSON.parse(Buffer.concat(chunks).toString("utf8")) as { reports: Report[] }).reports);
        response.writeHead(202, { "content-type": "application/json" }).end("{}");
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/usage`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("holds at most maxOperations distinct operations until a flush and counts the rest as overflow", async () => {
    received.length = 0;
    const metrics = new GatewayMetrics();
    const at = Date.parse("2026-11-27T15:42:10Z");
    const recorder = createUsageRecorder({
      usageUrl: url,
      mint,
      maxOperations: 2,
      flushIntervalMs: 3_600_000,
      logger: createLogger("gateway", "silent"),
      metrics,
      now: () => at,
    });
    recorder.record("a".repeat(64), "console", ["Query", "Query.x"], []);
    recorder.record("a".repeat(64), "console", ["Query", "Query.x"], ["Status.OPEN"]);
    recorder.record("b".repeat(64), "console", ["Query"], []);
    recorder.record("c".repeat(64), "console", ["Query"], []);
    recorder.record("a".repeat(64), "pipeline", ["Query"], []);
    await recorder.close();
    expect(received).toEqual([
      { operationHash: "a".repeat(64), client: "console", hour: "2026-11-27T15:00:00.000Z", count: 2, coordinates: ["Query", "Query.x", "Status.OPEN"] },
      { operationHash: "b".repeat(64), client: "console", hour: "2026-11-27T15:00:00.000Z", count: 1, coordinates: ["Query"] },
    ]);
    expect(authorizedAs).toContain("compliance-graph-gateway");
    expect((await metrics.usageOverflow.get()).values[0]?.value).toBe(2);
  });

  it("keeps the counts of a flush the registry did not take, and sends them with the next", async () => {
    received.length = 0;
    const metrics = new GatewayMetrics();
    const recorder = createUsageRecorder({ usageUrl: url, mint, flushIntervalMs: 3_600_000, logger: createLogger("gateway", "silent"), metrics });
    recorder.record("d".repeat(64), "console", ["Query"], []);
    down = true;
    await recorder.flush();
    expect(received).toEqual([]);
    recorder.record("d".repeat(64), "console", ["Query"], []);
    down = false;
    await recorder.close();
    expect(received.map((report) => report.count)).toEqual([2]);
    expect((await metrics.usageFlushes.get()).values.map(({ labels, value }) => [labels.outcome, value]).sort()).toEqual([
      ["error", 1],
      ["ok", 1],
    ]);
  });
});

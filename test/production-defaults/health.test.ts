import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/start-stack.js";

describe("health endpoints of the gateway", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  it("is live, and ready while every subgraph is ready, without a token", async () => {
    expect((await fetch(`${stack.gateway.baseUrl}/health/live`)).status).toBe(200);
    const ready = await fetch(`${stack.gateway.baseUrl}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
  });

  it("serves its internal token public key for subgraphs that fetch it", async () => {
    const jwks = (await (await fetch(`${stack.gateway.baseUrl}/.well-known/internal-jwks.json`)).json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys).toEqual([stack.internalKey.publicJwk]);
  });

  it("is not ready when a subgraph is down", async () => {
    const { createServer } = await import("node:http");
    // A subgraph URL where nothing answers: a port that was free a moment ago.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { startGateway } = await import("@compliance-graph/gateway");
    const { createLogger } = await import("@compliance-graph/process-shell");
    const gateway = await startGateway({
      port: 0,
      production: false,
      supergraph: { path: stack.supergraphPath },
      subgraphUrls: { ...stack.subgraphUrls, trpd: `http://127.0.0.1:${port}/graphql` },
      oidc: { issuer: stack.idp.issuer, audience: stack.idp.audience },
      internalToken: { privateJwk: stack.internalKey.privateJwk },
      logger: createLogger("gateway", "silent"),
    });
    try {
      const ready = await fetch(`${gateway.baseUrl}/health/ready`);
      expect(ready.status).toBe(503);
    } finally {
      await gateway.close();
    }
  });
});

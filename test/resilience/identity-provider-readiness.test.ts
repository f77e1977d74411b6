import { startGateway, type RunningGateway } from "@compliance-graph/gateway";
import { createLogger } from "@compliance-graph/process-shell";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";

/**
 * Ready means the gateway can do its work: the supergraph loaded, the subgraphs answer, and the
 * identity provider's signing keys at hand. Without keys every request would be refused with 503,
 * so a load balancer should not send it any.
 */
describe("the gateway's readiness and its identity provider", () => {
  let stack: Stack;
  let orphan: RunningGateway;

  beforeAll(async () => {
    stack = await startStack();
    // The same stack, but trusting an identity provider nobody runs.
    orphan = await startGateway({
      port: 0,
      production: false,
      supergraph: { path: stack.supergraphPath },
      subgraphUrls: stack.subgraphUrls,
      oidc: { issuer: `http://127.0.0.1:${await freePort()}/auth/realms/dev`, audience: stack.idp.audience },
      internalToken: { privateJwk: stack.internalKey.privateJwk },
      logger: createLogger("gateway", "silent"),
    });
  });
  afterAll(async () => {
    await orphan?.close();
    await stack?.close();
  });

  const ready = async (gateway: RunningGateway) => (await fetch(`${gateway.baseUrl}/health/ready`)).status;

  it("is not ready while the identity provider's keys were never fetched and cannot be", async () => {
    expect(await ready(orphan)).toBe(503);
  });

  it("stays ready on keys it fetched before when the identity provider goes away", async () => {
    expect(await ready(stack.gateway)).toBe(200);
    await stack.idp.close();
    expect(await ready(stack.gateway)).toBe(200);
  });
});

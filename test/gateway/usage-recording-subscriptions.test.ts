import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "@compliance-graph/gateway";
import { createInternalTokenVerifier } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import { createTestDatabase, pollUntil } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";
import { startRegistryTestPeer, type RegistryTestPeer } from "../support/registry-test-peer.js";
import { modernClient, subscribeModern, wsUrl } from "../subscriptions/support/subscription-clients.js";

/**
 * A field used only by a subscription (the console's live updates) must count in the registry's
 * checks as much as one a query selects: a subscription started over WebSocket is one use of its
 * operation, recorded like a request over HTTP.
 */
describe("usage recording of subscriptions", () => {
  let stack: Stack;
  let registry: RegistryTestPeer;
  let gateway: RunningGateway;

  beforeAll(async () => {
    stack = await startStack({ realAopd: { databaseUrl: await createTestDatabase("usage-subscriptions"), seedDemoProofs: 0 } });
    registry = await startRegistryTestPeer(createInternalTokenVerifier({ audience: "registry", publicKeys: [stack.internalKey.publicJwk] }));
    gateway = await startGateway({
      port: 0,
      production: false,
      supergraph: { path: stack.supergraphPath },
      subgraphUrls: stack.subgraphUrls,
      usage: { url: `${registry.url}/usage`, flushIntervalMs: 200 },
      oidc: { issuer: stack.idp.issuer, audience: stack.idp.audience },
      internalToken: { privateJwk: stack.internalKey.privateJwk },
      logger: createLogger("gateway", "silent"),
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await registry?.close();
    await stack?.close();
  });

  it("records a subscription started, with its client and the coordinates it selects", async () => {
    const client = modernClient(wsUrl(gateway.url), await stack.fetchToken());
    try {
      const subscription = subscribeModern(
        client,
        `subscription Live($customer: String!) { aopdProofs(filter: { is: { any: { customerId: { eq: $customer } } } }) { id status } }`,
        { customer: "CUST-USAGE" },
      );
      const reports = await pollUntil(
        "the subscription's usage reported",
        async () => registry.usage.filter((report) => report.coordinates.includes("Subscription.aopdProofs")),
        (found) => found.length > 0,
        { timeoutMs: 30_000 },
      );
      subscription.stop();
      expect(reports[0]).toMatchObject({ client: "dev-api-client", count: 1 });
      expect(reports[0]!.coordinates).toEqual(expect.arrayContaining(["Subscription", "Subscription.aopdProofs", "Subscription.aopdProofs.filter"]));
      expect(reports[0]!.operationHash).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await client.dispose();
    }
  });
});

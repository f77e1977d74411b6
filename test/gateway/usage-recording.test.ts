import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDevRealm, startDevIdentityProvider, type RunningDevIdentityProvider } from "@compliance-graph/dev-identity-provider";
import { composeSubgraphs, gatewayOptionsFromEnv, startGateway, type RunningGateway } from "@compliance-graph/gateway";
import type { RunningSubgraphServer } from "@compliance-graph/graphql-execution";
import { createInternalTokenVerifier, generateInternalSigningKey } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import { fetchToken, pollUntil, postGraphQL } from "@compliance-graph/test-kit";
import { startRegistryTestPeer, type RegistryTestPeer, type UsageReport } from "../support/registry-test-peer.js";
import { kycSchemaFiles, startKycSubgraph } from "../support/kyc/start-kyc-subgraph.js";
import { heldSchemaFiles, startHeldSubgraph, type RunningHeldSubgraph } from "../support/held/start-held-subgraph.js";
import { modernClient, subscribeModern, wsUrl } from "../subscriptions/support/subscription-clients.js";

/** The reports of one operation and client added up, as the registry adds the deltas. */
function totals(reports: readonly UsageReport[]): Map<string, { count: number; coordinates: Set<string>; hours: Set<string> }> {
  const byOperation = new Map<string, { count: number; coordinates: Set<string>; hours: Set<string> }>();
  for (const report of reports) {
    const key = `${report.operationHash} ${report.client}`;
    const total = byOperation.get(key) ?? { count: 0, coordinates: new Set(), hours: new Set() };
    total.count += report.count;
    for (const coordinate of report.coordinates) total.coordinates.add(coordinate);
    total.hours.add(report.hour);
    byOperation.set(key, total);
  }
  return byOperation;
}

/**
 * The gateway records which schema coordinates each operation of each client uses, counts them per
 * hour in memory and sends them to the registry's `POST /usage` with its own internal token. The
 * registry is a test peer of the contract that verifies that token (test/support/registry-test-peer.ts).
 */
describe("usage recording", () => {
  let idp: RunningDevIdentityProvider;
  let kyc: RunningSubgraphServer;
  let held: RunningHeldSubgraph;
  let registry: RegistryTestPeer;
  let gateway: RunningGateway;

  beforeAll(async () => {
    const internalKey = await generateInternalSigningKey();
    kyc = await startKycSubgraph(createInternalTokenVerifier({ audience: "kyc", publicKeys: [internalKey.publicJwk] }));
    held = await startHeldSubgraph(createInternalTokenVerifier({ audience: "held", publicKeys: [internalKey.publicJwk] }));
    registry = await startRegistryTestPeer(createInternalTokenVerifier({ audience: "registry", publicKeys: [internalKey.publicJwk] }));
    registry.publish(
      await composeSubgraphs([
        { name: "kyc", routingUrl: kyc.url, schemaFile: kycSchemaFiles.v1 },
        { name: "held", routingUrl: held.url, schemaFile: heldSchemaFiles.v1 },
      ]),
    );
    idp = await startDevIdentityProvider({
      clients: [...readDevRealm().clients, { clientId: "kyc-pipeline", clientSecret: "kyc-secret", roles: ["kyc:review"], serviceAccount: true }],
    });
    gateway = await startGateway({
      port: 0,
      production: false,
      supergraph: { path: "unused-with-the-registry.graphql" },
      registry: { url: registry.url, keys: registry.publicJwks, cachePath: join(tmpdir(), `cg-usage-${process.pid}.json`), pollIntervalMs: 1_000 },
      usage: { url: `${registry.url}/usage`, flushIntervalMs: 200 },
      oidc: { issuer: idp.issuer, audience: idp.audience },
      internalToken: { privateJwk: internalKey.privateJwk },
      logger: createLogger("gateway", "silent"),
    });
  });

  afterAll(async () => {
    await gateway?.close();
    held?.release();
    await Promise.all([kyc?.close(), held?.close(), registry?.close(), idp?.close()]);
  });

  it("sends each operation's count per client and hour with the coordinates it selected and the values it gave", async () => {
    const pipeline = await fetchToken(idp.tokenEndpoint, "kyc-pipeline", "kyc-secret");
    const developer = await fetchToken(idp.tokenEndpoint, "dev-api-client", "dev-secret");
    const cases = "query Cases($filter: KycCaseFilter) { kycCases(filter: $filter) { id status } }";
    for (const status of ["CLEARED", "CLEARED", "REJECTED"]) expect((await postGraphQL(gateway.url, cases, pipeline, { filter: { status } })).status).toBe(200);
    // One operation whatever its literals: the two ids are one hash.
    for (const id of ["c-1", "c-2"]) expect((await postGraphQL(gateway.url, `{ kycCase(id: "${id}") { status } }`, pipeline)).status).toBe(200);
    expect((await postGraphQL(gateway.url, "{ kycCallerRoles }", developer)).status).toBe(200);

    const seen = await pollUntil(
      "all six requests reported",
      async () => totals(registry.usage),
      (byOperation) => [...byOperation.values()].reduce((sum, total) => sum + total.count, 0) >= 6,
      { timeoutMs: 30_000 },
    );
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
    const entries = [...seen.entries()];
    expect(entries).toHaveLength(3);
    const find = (client: string, coordinate: string) => entries.find(([key, total]) => key.endsWith(` ${client}`) && total.coordinates.has(coordinate))?.[1];
    const casesTotal = find("kyc-pipeline", "Query.kycCases");
    expect(casesTotal?.count).toBe(3);
    expect([...(casesTotal?.coordinates ?? [])]).toEqual(
      expect.arrayContaining([
        "Query",
        "Query.kycCases",
        "Query.kycCases.filter",
        "KycCaseFilter",
        "KycCaseFilter.status",
        "KycStatus.CLEARED",
        "KycStatus.REJECTED",
        "KycCase",
        "KycCase.id",
        "KycCase.status",
      ]),
    );
    expect(casesTotal?.coordinates.has("KycStatus.IN_REVIEW")).toBe(false);
    expect(casesTotal?.coordinates.has("KycCaseFilter.customer")).toBe(false);
    expect(find("kyc-pipeline", "Query.kycCase.id")?.count).toBe(2);
    expect(find("dev-api-client", "Query.kycCallerRoles")?.count).toBe(1);
    for (const [key, total] of entries) {
      expect(key).toMatch(/^[0-9a-f]{64} /);
      expect([...total.hours]).toEqual([hour]);
    }
  });

  it("counts a request answered with an identical request's execution as one more use", async () => {
    const pipeline = await fetchToken(idp.tokenEndpoint, "kyc-pipeline", "kyc-secret");
    const sharedRequests = async () =>
      Number(/^gateway_shared_requests_total(?:\{[^}]*\})? (\d+)$/m.exec(await (await fetch(gateway.metricsUrl)).text())?.[1] ?? 0);
    const query = "query Held { heldAnswer }";
    const first = postGraphQL(gateway.url, query, pipeline);
    await held.entered();
    const second = postGraphQL(gateway.url, query, pipeline);
    await pollUntil("the second request joined the first's execution", sharedRequests, (shared) => shared >= 1, { timeoutMs: 30_000 });
    held.release();
    expect([(await first).status, (await second).status]).toEqual([200, 200]);
    const heldTotal = await pollUntil(
      "both requests counted",
      async () => [...totals(registry.usage).values()].find((total) => total.coordinates.has("Query.heldAnswer")),
      (total) => (total?.count ?? 0) >= 2,
      { timeoutMs: 30_000 },
    );
    expect(heldTotal?.count).toBe(2);
  });

  it("refuses a subscription with a clear error when the supergraph served has none", async () => {
    const client = modernClient(wsUrl(gateway.url), await fetchToken(idp.tokenEndpoint, "kyc-pipeline", "kyc-secret"));
    try {
      const subscription = subscribeModern(client, "subscription { kycCases { id } }");
      await pollUntil(
        "the refusal",
        async () => subscription.error,
        (error) => error !== undefined,
        { timeoutMs: 30_000 },
      );
      expect(subscription.error).toEqual([
        expect.objectContaining({ message: "The supergraph served now has no subscriptions.", extensions: { code: "BAD_REQUEST" } }),
      ]);
    } finally {
      await client.dispose();
    }
  });

  it("is on with a registry unless GATEWAY_USAGE_RECORDING=false", async () => {
    const env = {
      OIDC_ISSUER: idp.issuer,
      GATEWAY_REGISTRY_URL: registry.url,
      INTERNAL_JWT_PRIVATE_JWK: JSON.stringify((await generateInternalSigningKey()).privateJwk),
    };
    expect((await gatewayOptionsFromEnv(env)).usage).toEqual({ url: `${registry.url}/usage` });
    expect((await gatewayOptionsFromEnv({ ...env, GATEWAY_USAGE_RECORDING: "false" })).usage).toBeUndefined();
    await expect(gatewayOptionsFromEnv({ ...env, GATEWAY_USAGE_RECORDING: "off" })).rejects.toThrow(/GATEWAY_USAGE_RECORDING must be true or false; got "off"/);
  });
});

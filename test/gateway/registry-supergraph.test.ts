import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDevRealm, startDevIdentityProvider, type RunningDevIdentityProvider } from "@compliance-graph/dev-identity-provider";
import { composeSubgraphs, startGateway, type GatewayOptions, type RunningGateway } from "@compliance-graph/gateway";
import type { RunningSubgraphServer } from "@compliance-graph/graphql-execution";
import { createInternalTokenVerifier, generateInternalSigningKey, type InternalSigningKey } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import { fetchToken, pollUntil, postGraphQL } from "@compliance-graph/test-kit";
import { startRegistryTestPeer, type RegistryTestPeer } from "../support/registry-test-peer.js";
import { kycSchemaFiles, startKycSubgraph } from "../support/kyc/start-kyc-subgraph.js";

/**
 * Gateways take their supergraph from the schema registry: a new version is served by every
 * replica, a supergraph whose signature does not verify is refused, a registry that goes away
 * leaves the gateways serving what they verified (readiness degraded), and a gateway started
 * while it is away serves its copy on disk. The registry here is a test peer that speaks the
 * registry's contract (test/support/registry-test-peer.ts).
 */
describe("the supergraph from the schema registry", () => {
  let folder: string;
  let idp: RunningDevIdentityProvider;
  let kyc: RunningSubgraphServer;
  let registry: RegistryTestPeer;
  let internalKey: InternalSigningKey;
  let supergraphs: { v1: string; v2: string };
  let outsiderToken: string;
  const gateways: RunningGateway[] = [];
  const kycFilesRoute = [{ path: "/kyc/files/", subgraph: "kyc", role: "kyc:export" }];

  const startRegistryGateway = async (cacheName: string, registryOptions: Partial<NonNullable<GatewayOptions["registry"]>> = {}) => {
    const gateway = await startGateway({
      port: 0,
      production: false,
      supergraph: { path: "unused-with-the-registry.graphql" },
      registry: { url: registry.url, keys: registry.publicJwks, cachePath: join(folder, cacheName), pollIntervalMs: 200, ...registryOptions },
      subgraphRoutesPath: join(folder, "platform-routes.yaml"),
      oidc: { issuer: idp.issuer, audience: idp.audience },
      internalToken: { privateJwk: internalKey.privateJwk },
      logger: createLogger("gateway", "silent"),
    });
    gateways.push(gateway);
    return gateway;
  };
  const kycCaseStatus = async (gateway: RunningGateway) => (await postGraphQL(gateway.url, '{ kycCase(id: "c-1") { status } }', outsiderToken)).status;
  const refusedLine = /^gateway_registry_supergraph_fetches_total\{outcome="refused"[^}]*\} (\d+)$/m;
  const metric = async (gateway: RunningGateway, line: RegExp) => {
    const text = await (await fetch(gateway.metricsUrl)).text();
    return Number(line.exec(text)?.[1] ?? "0");
  };
  const servedVersion = (gateway: RunningGateway) => metric(gateway, /^gateway_registry_supergraph_version\{[^}]*\} (\d+)$/m);
  const readiness = async (gateway: RunningGateway) =>
    (await (await fetch(`${gateway.baseUrl}/health/ready`)).json()) as { status: string; degraded?: string[] };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "cg-registry-source-"));
    internalKey = await generateInternalSigningKey();
    kyc = await startKycSubgraph(createInternalTokenVerifier({ audience: "kyc", publicKeys: [internalKey.publicJwk] }));
    supergraphs = {
      v1: await composeSubgraphs([{ name: "kyc", routingUrl: kyc.url, schemaFile: kycSchemaFiles.v1 }]),
      v2: await composeSubgraphs([{ name: "kyc", routingUrl: kyc.url, schemaFile: kycSchemaFiles.v2 }]),
    };
    registry = await startRegistryTestPeer();
    // The platform's own routes (the registry's door, say), which no published route may take over.
    await writeFile(join(folder, "platform-routes.yaml"), "routes:\n  - path: /platform/\n    subgraph: platform\n");
    idp = await startDevIdentityProvider({
      clients: [...readDevRealm().clients, { clientId: "kyc-outsider", clientSecret: "outsider-secret", roles: [], serviceAccount: true }],
    });
    outsiderToken = await fetchToken(idp.tokenEndpoint, "kyc-outsider", "outsider-secret");
  });

  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    await Promise.all([kyc?.close(), registry?.close(), idp?.close()]);
    await rm(folder, { recursive: true, force: true });
  });

  it("serves the registry's supergraph and routes, and keeps the verified copy on disk", async () => {
    registry.publish(supergraphs.v1, [...kycFilesRoute, { path: "/platform/takeover", subgraph: "kyc" }]);
    const gateway = await startRegistryGateway("a.json");
    expect(await kycCaseStatus(gateway)).toBe(403);
    // The route came with the supergraph: guarded by its role at the gateway.
    expect((await fetch(`${gateway.baseUrl}/kyc/files/report.pdf`, { headers: { authorization: `Bearer ${outsiderToken}` } })).status).toBe(403);
    // With the roles of the registry's own routes (registry-door-routes.ts).
    expect(gateway.servedRoles()).toEqual(["kyc:export", "kyc:review", "schema:admin", "schema:publish"]);
    // A published route over a path of the platform's routes file is left out: the file's route answers (its
    // deployable is not running here, so 503 naming it), never the KYC subgraph.
    const takeover = await fetch(`${gateway.baseUrl}/platform/takeover`, { headers: { authorization: `Bearer ${outsiderToken}` } });
    expect(takeover.status).toBe(503);
    expect(await takeover.text()).toContain("platform");
    expect(await readiness(gateway)).toEqual({ status: "ready" });
    expect(JSON.parse(await readFile(join(folder, "a.json"), "utf8"))).toMatchObject({ version: 1, supergraph: supergraphs.v1 });
  });

  it("serves a new version on every gateway within seconds of its publish", async () => {
    const [first] = gateways as [RunningGateway];
    const second = await startRegistryGateway("b.json");
    const version = registry.publish(supergraphs.v2);
    for (const gateway of [first, second]) {
      await pollUntil(
        "the new version served",
        () => kycCaseStatus(gateway),
        (status) => status === 200,
        { timeoutMs: 10_000 },
      );
      expect(await servedVersion(gateway)).toBe(version);
      // Its routes replaced the previous version's: the route is gone.
      expect((await fetch(`${gateway.baseUrl}/kyc/files/report.pdf`, { headers: { authorization: `Bearer ${outsiderToken}` } })).status).toBe(404);
    }
  });

  it("refuses a supergraph signed with another key, or changed after signing, and keeps serving the verified one", async () => {
    const [gateway] = gateways as [RunningGateway];
    const refusedBefore = await metric(gateway, refusedLine);
    registry.publishForged(supergraphs.v1);
    await pollUntil(
      "the forged version refused",
      () => metric(gateway, refusedLine),
      (count) => count > refusedBefore,
      { timeoutMs: 10_000 },
    );
    registry.publishTampered(supergraphs.v2, supergraphs.v1);
    await pollUntil(
      "the tampered version refused",
      () => metric(gateway, refusedLine),
      (count) => count > refusedBefore + 1,
      { timeoutMs: 10_000 },
    );
    expect(await servedVersion(gateway)).toBe(2);
    expect(await kycCaseStatus(gateway)).toBe(200);
    expect(JSON.parse(await readFile(join(folder, "a.json"), "utf8"))).toMatchObject({ version: 2 });
  });

  it("keeps serving while the registry is down, degraded; a gateway started meanwhile serves its copy from disk", async () => {
    const [gateway] = gateways as [RunningGateway];
    await registry.stop();
    await pollUntil(
      "readiness degraded",
      () => readiness(gateway),
      (report) => report.status === "degraded",
      { timeoutMs: 10_000 },
    );
    expect(await readiness(gateway)).toEqual({ status: "degraded", degraded: ["schema registry"] });
    expect(await kycCaseStatus(gateway)).toBe(200);

    const fromDisk = await startRegistryGateway("a.json");
    expect(await kycCaseStatus(fromDisk)).toBe(200);
    expect(await servedVersion(fromDisk)).toBe(2);
    expect((await readiness(fromDisk)).status).toBe("degraded");
  });

  it("refuses to start from a copy on disk that was changed, and without any supergraph", async () => {
    const copy = JSON.parse(await readFile(join(folder, "a.json"), "utf8")) as { supergraph: string };
    await writeFile(join(folder, "tampered.json"), JSON.stringify({ ...copy, supergraph: supergraphs.v1 }));
    await expect(startRegistryGateway("tampered.json")).rejects.toThrow(/not the one signed/);
    await expect(startRegistryGateway("missing.json")).rejects.toThrow(
      /No supergraph to serve: the schema registry at .* gave none that verifies, and there is no copy at/,
    );
  });

  it("converges again when the registry is back: every gateway serves the next version", async () => {
    await registry.start();
    const version = registry.publish(supergraphs.v1, kycFilesRoute);
    for (const gateway of gateways) {
      await pollUntil(
        "the version after the outage served",
        () => servedVersion(gateway),
        (served) => served === version,
        { timeoutMs: 10_000 },
      );
      expect(await kycCaseStatus(gateway)).toBe(403);
      await pollUntil(
        "readiness back",
        () => readiness(gateway),
        (report) => report.status === "ready",
        { timeoutMs: 10_000 },
      );
    }
  });

  it("refuses, in production, a registry without trusted keys given out of band", async () => {
    await expect(
      startGateway({
        port: 0,
        production: true,
        supergraph: { path: "unused.graphql" },
        registry: { url: registry.url },
        oidc: { issuer: "https://idp.example", audience: "compliance-graph" },
        internalToken: { privateJwk: { ...internalKey.privateJwk, kid: "production-key" } },
        logger: createLogger("gateway", "silent"),
      }),
    ).rejects.toThrow(/GATEWAY_REGISTRY_URL needs GATEWAY_SUPERGRAPH_KEYS in production/);
  });
});

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevIdentityProvider, type RunningDevIdentityProvider } from "@compliance-graph/dev-identity-provider";
import { startGateway, type RunningGateway } from "@compliance-graph/gateway";
import type { RunningSubgraphServer } from "@compliance-graph/graphql-execution";
import { createInternalTokenVerifier, generateInternalSigningKey, type InternalSigningKey } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import { startRegistry, type RunningRegistry } from "@compliance-graph/registry";
import { createTestDatabase, fetchToken, pollUntil, postGraphQL } from "@compliance-graph/test-kit";
import { kycSchemaFiles, startKycSubgraph } from "../support/kyc/start-kyc-subgraph.js";
import { subgraphCommand } from "../support/subgraph-command.js";

const client = { clientId: "dev-api-client", clientSecret: "dev-secret" };

/**
 * A platform's first day: the schema registry holds nothing, and the gateways take their
 * supergraph from it. A gateway still starts, serves its door (the registry's command-line
 * routes among them), answers /graphql with SERVICE_UNAVAILABLE and reports degraded readiness,
 * so that the first subgraph is published through it like every later one: no key of its own
 * for the first publish, no way around the gateway.
 */
describe("an empty schema registry's first version, published through the gateway", () => {
  let folder: string;
  let idp: RunningDevIdentityProvider;
  let internalKey: InternalSigningKey;
  let registry: RunningRegistry;
  let kyc: RunningSubgraphServer;
  const gateways: RunningGateway[] = [];

  const startRegistryGateway = async (cacheName: string) => {
    const gateway = await startGateway({
      port: 0,
      production: false,
      supergraph: { path: "unused-with-the-registry.graphql" },
      registry: { url: registry.url, cachePath: join(folder, cacheName), pollIntervalMs: 200 },
      oidc: { issuer: idp.issuer, audience: idp.audience },
      internalToken: { privateJwk: internalKey.privateJwk },
      logger: createLogger("gateway", "silent"),
    });
    gateways.push(gateway);
    return gateway;
  };
  const readiness = async (gateway: RunningGateway) => {
    const response = await fetch(`${gateway.baseUrl}/health/ready`);
    return { status: response.status, body: (await response.json()) as { status: string; degraded?: string[] } };
  };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "cg-first-version-"));
    internalKey = await generateInternalSigningKey();
    idp = await startDevIdentityProvider();
    // The registry trusts the gateway's key alone.
    registry = await startRegistry({
      config: { port: 0, databaseUrl: await createTestDatabase("registry_first_version") },
      authenticate: createInternalTokenVerifier({ audience: "registry", publicKeys: [internalKey.publicJwk] }),
    });
    kyc = await startKycSubgraph(createInternalTokenVerifier({ audience: "kyc", publicKeys: [internalKey.publicJwk] }));
  });
  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    await Promise.all([kyc?.close(), registry?.close(), idp?.close()]);
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("starts with nothing published: /graphql unavailable, readiness degraded, the door open", async () => {
    const gateway = await startRegistryGateway("first.json");
    expect(await readiness(gateway)).toEqual({ status: 200, body: { status: "degraded", degraded: ["no supergraph published yet"] } });
    const token = await fetchToken(idp.tokenEndpoint, client.clientId, client.clientSecret);
    const answer = await postGraphQL(gateway.url, "{ __typename }", token);
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("2");
    expect(answer.body.errors?.[0]).toMatchObject({
      extensions: { code: "SERVICE_UNAVAILABLE" },
      message: expect.stringMatching(/No supergraph is published yet/),
    });
    // Unknown callers are still turned away at the door first.
    expect((await postGraphQL(gateway.url, "{ __typename }", undefined)).status).toBe(401);
    const keys = await fetch(`${gateway.baseUrl}/.well-known/registry-keys.json`);
    expect(keys.status).toBe(200);
  });

  it("a gateway closed while it waits closes at once", async () => {
    const waiting = await startRegistryGateway("closed-while-waiting.json");
    await waiting.close();
    expect(
      await fetch(`${waiting.baseUrl}/health/live`).then(
        () => "answered",
        () => "closed",
      ),
    ).toBe("closed");
  });

  it("serves the first version once it is published through its door with the client's credentials", { timeout: 300_000 }, async () => {
    const [gateway] = gateways as [RunningGateway];
    const routes = join(folder, "kyc-routes.yaml");
    await writeFile(routes, "routes:\n  - path: /kyc/files/\n    subgraph: kyc\n    role: kyc:export\n");
    const published = await subgraphCommand(["publish", "--name", "kyc", "--url", kyc.url, "--schema", kycSchemaFiles.v1, "--routes", routes], {
      GRAPH_URL: gateway.baseUrl,
      GRAPH_TOKEN: "",
      GRAPH_CLIENT_ID: client.clientId,
      GRAPH_CLIENT_SECRET: client.clientSecret,
      GRAPH_ISSUER_URL: idp.issuer,
    });
    expect(published.stderr).toBe("");
    expect(published).toMatchObject({ code: 0 });
    expect(published.stdout).toContain("kyc: published as version 1");

    const token = await fetchToken(idp.tokenEndpoint, client.clientId, client.clientSecret);
    const served = await pollUntil(
      "the first version served",
      () => postGraphQL(gateway.url, "{ kycCases { id status } }", token),
      (answer) => answer.status === 200,
      { timeoutMs: 30_000 },
    );
    expect(served.body).toEqual({ data: { kycCases: [{ id: "c-1", status: "IN_REVIEW" }] } });
    expect(await readiness(gateway)).toEqual({ status: 200, body: { status: "ready" } });
    // Its routes are served with it: the route exists (403 for a caller without its role, not 404).
    const filesRoute = await fetch(`${gateway.baseUrl}/kyc/files/report.pdf`, { headers: { authorization: `Bearer ${token}` } });
    await filesRoute.body?.cancel();
    expect(filesRoute.status).toBe(403);

    // A gateway started now finds the version published and serves it at once.
    const next = await startRegistryGateway("first.json");
    expect((await postGraphQL(next.url, "{ kycCases { id } }", token)).status).toBe(200);
  });
});

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "@compliance-graph/gateway";
import { createInternalTokenVerifier } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import { startRegistry, verifySupergraphSignature, type RunningRegistry } from "@compliance-graph/registry";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { defaultClient, startStack, type Stack } from "../support/start-stack.js";
import { subgraphCommand } from "../support/subgraph-command.js";

const subgraphRoutes = fileURLToPath(new URL("../../subgraph-routes.yaml", import.meta.url));
const kyc = `extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])
type Query { kycStatus(address: String!): KycStatus }
type KycStatus { address: String! verified: Boolean! }
`;

// The path a team's pipeline takes: the command line with its client's credentials, the token
// endpoint of the identity provider, the gateway's door (its registry routes, beside a supergraph file),
// the internal token, the registry.
describe("the registry behind the gateway's door", () => {
  let stack: Stack;
  let registry: RunningRegistry;
  let gateway: RunningGateway;
  let dir: string;

  beforeAll(async () => {
    stack = await startStack({ extraClients: [{ clientId: "reader", clientSecret: "reader-secret", roles: ["proofs:read"] }] });
    registry = await startRegistry({
      config: { port: 0, databaseUrl: await createTestDatabase("registry_gateway") },
      authenticate: createInternalTokenVerifier({ audience: "registry", publicKeys: [stack.internalKey.publicJwk] }),
    });
    gateway = await startGateway({
      port: 0,
      production: false,
      supergraph: { path: stack.supergraphPath },
      subgraphRoutesPath: subgraphRoutes,
      subgraphUrls: { ...stack.subgraphUrls, registry: `${registry.url}/` },
      oidc: { issuer: stack.idp.issuer, audience: stack.idp.audience },
      internalToken: { privateJwk: stack.internalKey.privateJwk },
      logger: createLogger("gateway", "silent"),
    });
    dir = await mkdtemp(join(tmpdir(), "registry-gateway-"));
    await writeFile(join(dir, "kyc.graphql"), kyc);
  });
  afterAll(async () => {
    await gateway?.close();
    await registry?.close();
    await stack?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("publishes with dev-api-client's credentials through the gateway; the first publisher's client owns the subgraph", { timeout: 300_000 }, async () => {
    const env = {
      GRAPH_URL: gateway.baseUrl,
      GRAPH_TOKEN: "",
      GRAPH_CLIENT_ID: defaultClient.clientId,
      GRAPH_CLIENT_SECRET: defaultClient.clientSecret,
      GRAPH_ISSUER_URL: stack.idp.issuer,
    };
    const published = await subgraphCommand(["publish", "--name", "kyc", "--url", "http://127.0.0.1:4199/graphql", "--schema", join(dir, "kyc.graphql")], env);
    expect(published.stderr).toBe("");
    expect(published).toMatchObject({ code: 0 });
    expect(published.stdout).toContain("kyc: published as version 1");
    const history = await subgraphCommand(["history", "--json"], env);
    expect(JSON.parse(history.stdout)).toMatchObject({ versions: [{ version: 1, subgraph: "kyc", action: "publish", client: "dev-api-client" }] });

    // The keys are public through the gateway, and verify what the registry serves its gateways.
    const keys = await (await fetch(`${gateway.baseUrl}/.well-known/registry-keys.json`)).json();
    const served = await (await fetch(`${registry.url}/supergraph`)).json();
    await expect(verifySupergraphSignature(keys, served)).resolves.toMatchObject({ version: 1 });
  });

  it("refuses a caller without schema:publish at the gateway, and never forwards to the registry's internal paths", { timeout: 120_000 }, async () => {
    const token = await stack.fetchToken();
    const reader = await stack.fetchToken("reader", "reader-secret");
    const forbidden = await fetch(`${gateway.baseUrl}/registry/subgraphs/history`, { headers: { authorization: `Bearer ${reader}` } });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ error: "forbidden" });
    const notAdmin = await fetch(`${gateway.baseUrl}/registry/owners/set`, {
      method: "POST",
      headers: { authorization: `Bearer ${reader}`, "content-type": "application/json" },
      body: '{"name":"kyc","owners":["reader"]}',
    });
    expect(notAdmin.status).toBe(403);
    const anonymous = await fetch(`${gateway.baseUrl}/registry/subgraphs/history`);
    expect(anonymous.status).toBe(401);
    const internal = await fetch(`${gateway.baseUrl}/usage`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(internal.status).toBe(404);
    const supergraph = await fetch(`${gateway.baseUrl}/supergraph`, { headers: { authorization: `Bearer ${token}` } });
    expect(supergraph.status).toBe(404);
  });
});

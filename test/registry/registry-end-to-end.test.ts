import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDevRealm, startDevIdentityProvider, type RunningDevIdentityProvider } from "@compliance-graph/dev-identity-provider";
import { startGateway, type RunningGateway } from "@compliance-graph/gateway";
import type { RunningSubgraphServer } from "@compliance-graph/graphql-execution";
import { createInternalTokenMinter, createInternalTokenVerifier, generateInternalSigningKey } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import { startRegistry, type RunningRegistry } from "@compliance-graph/registry";
import { createTestDatabase, fetchToken, pollUntil, postGraphQL } from "@compliance-graph/test-kit";
import { kycSchemaFiles, startKycSubgraph } from "../support/kyc/start-kyc-subgraph.js";
import { subgraphCommand } from "../support/subgraph-command.js";

// The whole loop with the real parts: the registry on PostgreSQL, a gateway taking its supergraph
// from it (signature verified against the keys the registry publishes) and recording usage into it,
// a subgraph written outside this repository's server code, and the command line through the gateway.
describe("publish, serve, record usage, check against it", () => {
  let idp: RunningDevIdentityProvider;
  let registry: RunningRegistry;
  let kyc: RunningSubgraphServer;
  let gateway: RunningGateway;
  let folder: string;
  let env: Record<string, string>;
  let reviewerToken: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "registry-e2e-"));
    const internalKey = await generateInternalSigningKey();
    idp = await startDevIdentityProvider({
      clients: [...readDevRealm().clients, { clientId: "kyc-reviewers", clientSecret: "reviewers-secret", roles: ["kyc:review"], serviceAccount: true }],
    });
    registry = await startRegistry({
      config: { port: 0, databaseUrl: await createTestDatabase("registry_e2e") },
      authenticate: createInternalTokenVerifier({ audience: "registry", publicKeys: [internalKey.publicJwk] }),
    });
    kyc = await startKycSubgraph(createInternalTokenVerifier({ audience: "kyc", publicKeys: [internalKey.publicJwk] }));
    // The first version goes in before any gateway serves from the registry (a gateway beside a file would do the same through its door).
    const mint = await createInternalTokenMinter({ privateJwk: internalKey.privateJwk });
    const first = await fetch(`${registry.url}/registry/subgraphs/publish`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${await mint({ subject: "service-account-dev-api-client", client: "dev-api-client", roles: ["schema:publish"] }, "registry")}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ name: "kyc", url: kyc.url, schema: await readFile(kycSchemaFiles.v1, "utf8") }),
    });
    expect(first.status).toBe(200);
    gateway = await startGateway({
      port: 0,
      production: false,
      supergraph: { path: "unused-with-the-registry.graphql" },
      registry: { url: registry.url, cachePath: join(folder, "supergraph.json"), pollIntervalMs: 200 },
      usage: { url: `${registry.url}/usage`, flushIntervalMs: 200 },
      oidc: { issuer: idp.issuer, audience: idp.audience },
      internalToken: { privateJwk: internalKey.privateJwk },
      logger: createLogger("gateway", "silent"),
    });
    env = { GRAPH_URL: gateway.baseUrl, GRAPH_TOKEN: await fetchToken(idp.tokenEndpoint, "dev-api-client", "dev-secret") };
    reviewerToken = await fetchToken(idp.tokenEndpoint, "kyc-reviewers", "reviewers-secret");
    await writeFile(join(folder, "kyc-without-status.graphql"), (await readFile(kycSchemaFiles.v1, "utf8")).replace("  status: String!\n", ""));
    await writeFile(
      join(folder, "kyc-with-owner.graphql"),
      (await readFile(kycSchemaFiles.v1, "utf8")).replace("  status: String!\n", "  status: String!\n  owner: String\n"),
    );
  });
  afterAll(async () => {
    await gateway?.close();
    await kyc?.close();
    await registry?.close();
    await idp?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("names the field in use and its client, refuses the publish, and the gateway serves the next version", { timeout: 300_000 }, async () => {
    const answer = await postGraphQL(gateway.url, '{ kycCase(id: "c-1") { id status } }', reviewerToken);
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();

    // The gateway flushes its counts to the registry off the request path; check until they arrive.
    const check = await pollUntil(
      "the check to see KycCase.status in use",
      () => subgraphCommand(["check", "--name", "kyc", "--url", kyc.url, "--schema", join(folder, "kyc-without-status.graphql"), "--json"], env),
      (outcome) => outcome.code === 1,
      { timeoutMs: 120_000 },
    );
    expect(JSON.parse(check.stdout)).toMatchObject({ safe: false, usage: [{ coordinate: "KycCase.status", requests: 1, clients: ["kyc-reviewers"] }] });
    const refused = await subgraphCommand(["publish", "--name", "kyc", "--url", kyc.url, "--schema", join(folder, "kyc-without-status.graphql")], env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("breaking change in use: KycCase.status was requested 1 times in the last 30 days by kyc-reviewers");

    const published = await subgraphCommand(["publish", "--name", "kyc", "--url", kyc.url, "--schema", join(folder, "kyc-with-owner.graphql")], env);
    expect(published.code).toBe(0);
    expect(published.stdout).toContain("kyc: published as version 2");
    // The gateway verifies the new version's signature and serves it (its version gauge; the field
    // itself is not served by this kyc process, which still runs the first schema).
    await pollUntil(
      "the gateway to serve version 2",
      async () => /^gateway_registry_supergraph_version\{[^}]*\} (\d+)$/m.exec(await (await fetch(gateway.metricsUrl)).text())?.[1],
      (version) => version === "2",
      { timeoutMs: 30_000 },
    );
    const validated = await postGraphQL(gateway.url, '{ kycCase(id: "c-1") { id owner } }', reviewerToken);
    expect(validated.body.errors?.[0]?.extensions?.code).not.toBe("GRAPHQL_VALIDATION_FAILED");
  });
});

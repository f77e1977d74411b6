import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDevRealm, startDevIdentityProvider, type RunningDevIdentityProvider } from "@compliance-graph/dev-identity-provider";
import { composeSubgraphs, startGateway, type RunningGateway } from "@compliance-graph/gateway";
import type { RunningSubgraphServer } from "@compliance-graph/graphql-execution";
import { createInternalTokenVerifier, generateInternalSigningKey } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import { fetchToken, postGraphQL } from "@compliance-graph/test-kit";
import { kycSchemaFiles, startKycSubgraph } from "../support/kyc/start-kyc-subgraph.js";

/**
 * Roles come from the subgraphs: a domain this repository has never heard of (KYC, with its role
 * `kyc:review` in its schema and `kyc:export` on a route) is served, and a token's grants of its
 * roles count at once; grants nobody declares are still ignored; when the domain drops a role, the
 * grant stops counting, for tokens verified before the change too.
 */
describe("roles declared by the served subgraphs", () => {
  let folder: string;
  let idp: RunningDevIdentityProvider;
  let kyc: RunningSubgraphServer;
  let gateway: RunningGateway | undefined;
  let supergraphPath: string;

  const writeSupergraph = async (kycVersion: keyof typeof kycSchemaFiles) =>
    writeFile(supergraphPath, await composeSubgraphs([{ name: "kyc", routingUrl: kyc.url, schemaFile: kycSchemaFiles[kycVersion] }]));
  const callerRoles = async (token: string) => {
    const { status, body } = await postGraphQL((gateway as RunningGateway).url, "{ kycCallerRoles }", token);
    expect(status).toBe(200);
    return (body.data as { kycCallerRoles: string[] }).kycCallerRoles;
  };
  const passwordToken = async (username: string) => {
    const response = await fetch(idp.tokenEndpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "password", scope: "openid", client_id: "compliance-graph-frontend", username, password: "demo-password" }),
    });
    return ((await response.json()) as { access_token: string }).access_token;
  };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "cg-roles-"));
    supergraphPath = join(folder, "supergraph.graphql");
    const internalKey = await generateInternalSigningKey();
    const verifierFor = (audience: string) => createInternalTokenVerifier({ audience, publicKeys: [internalKey.publicJwk] });
    kyc = await startKycSubgraph(verifierFor("kyc"));
    await writeSupergraph("v1");
    const routesPath = join(folder, "subgraph-routes.yaml");
    await writeFile(routesPath, "routes:\n  - path: /kyc/files/\n    subgraph: kyc\n    role: kyc:export\n");
    idp = await startDevIdentityProvider({
      clients: [
        ...readDevRealm().clients,
        // A KYC team's pipeline: its own roles, and one the identity provider grants for something else.
        { clientId: "kyc-pipeline", clientSecret: "kyc-secret", roles: ["kyc:review", "kyc:export", "admin"], serviceAccount: true },
        { clientId: "kyc-outsider", clientSecret: "outsider-secret", roles: ["proofs:read"], serviceAccount: true },
      ],
      servedRoles: () => gateway?.servedRoles() ?? [],
    });
    gateway = await startGateway({
      port: 0,
      production: false,
      supergraph: { path: supergraphPath, pollIntervalMs: 60_000 },
      subgraphRoutesPath: routesPath,
      oidc: { issuer: idp.issuer, audience: idp.audience },
      internalToken: { privateJwk: internalKey.privateJwk },
      logger: createLogger("gateway", "silent"),
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await Promise.all([kyc?.close(), idp?.close()]);
    await rm(folder, { recursive: true, force: true });
  });

  it("knows every role the supergraph and the routes declare, with no list of roles in this repository", () => {
    expect(gateway?.servedRoles()).toEqual(["kyc:export", "kyc:review"]);
  });

  it("keeps a token's grants of the new domain's roles and drops the grants nobody declares", async () => {
    const token = await fetchToken(idp.tokenEndpoint, "kyc-pipeline", "kyc-secret");
    const { status, body } = await postGraphQL((gateway as RunningGateway).url, '{ kycCase(id: "c-1") { id status } kycCallerRoles }', token);
    expect(status).toBe(200);
    expect(body).toEqual({ data: { kycCase: { id: "c-1", status: "IN_REVIEW" }, kycCallerRoles: ["kyc:export", "kyc:review"] } });
  });

  it("refuses the new domain's field to a caller without its role, naming the role", async () => {
    const token = await fetchToken(idp.tokenEndpoint, "kyc-outsider", "outsider-secret");
    const { status, body } = await postGraphQL((gateway as RunningGateway).url, '{ kycCase(id: "c-1") { id } }', token);
    expect(status).toBe(403);
    expect(body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(body.errors?.[0]?.message).toContain("kyc:review");
  });

  it("gives the development API client every served role, and the demo users only their own", async () => {
    const apiToken = await fetchToken(idp.tokenEndpoint, "dev-api-client", "dev-secret");
    expect((decodeJwt(apiToken).realm_access as { roles: string[] }).roles).toEqual(expect.arrayContaining(["kyc:review", "kyc:export"]));
    // Its realm roles (proofs:read, ...) belong to no subgraph this gateway serves: dropped.
    expect(await callerRoles(apiToken)).toEqual(["kyc:export", "kyc:review"]);
    const officerToken = await passwordToken("demo-officer");
    expect((decodeJwt(officerToken).realm_access as { roles: string[] }).roles).not.toContain("kyc:review");
    expect(await callerRoles(officerToken)).not.toContain("kyc:review");
  });

  it("stops counting a grant once the served supergraph no longer declares the role, for tokens verified before too", async () => {
    const token = await fetchToken(idp.tokenEndpoint, "kyc-pipeline", "kyc-secret");
    expect(await callerRoles(token)).toEqual(["kyc:export", "kyc:review"]);
    await writeSupergraph("v2");
    await gateway?.reloadSupergraph();
    expect(gateway?.servedRoles()).toEqual(["kyc:export"]);
    expect(await callerRoles(token)).toEqual(["kyc:export"]);
    const apiToken = await fetchToken(idp.tokenEndpoint, "dev-api-client", "dev-secret");
    expect((decodeJwt(apiToken).realm_access as { roles: string[] }).roles).not.toContain("kyc:review");
  });
});

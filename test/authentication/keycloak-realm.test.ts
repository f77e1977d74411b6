import { readFileSync } from "node:fs";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devRealmFile, readDevRealm } from "@compliance-graph/dev-identity-provider";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";

/** The password grant (Keycloak: direct access grants) with the form Keycloak takes. */
async function passwordToken(
  tokenEndpoint: string,
  form: Record<string, string>,
): Promise<{ status: number; body: { access_token?: string; error?: string } }> {
  const response = await fetch(tokenEndpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "password", scope: "openid", ...form }),
  });
  return { status: response.status, body: (await response.json()) as { access_token?: string; error?: string } };
}

describe("the committed Keycloak realm (dev-identity-provider/realm/dev-realm.json)", () => {
  let stack: Stack;
  beforeAll(async () => {
    const databaseUrl = await createTestDatabase("realm");
    stack = await startStack({
      realAopd: { databaseUrl, seedDemoProofs: 0 },
      extraClients: [{ clientId: "no-direct-grants", clientSecret: "s3cret", roles: ["proofs:read"] }],
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("sets the API client up as spec 5.2 says, with an audience client scope as a default scope, and a separate public frontend client", () => {
    const realm = JSON.parse(readFileSync(devRealmFile, "utf8")) as {
      clients: Record<string, unknown>[];
      clientScopes: { name: string; protocolMappers: { protocolMapper: string; config: Record<string, string> }[] }[];
      roles: { realm: { name: string }[] };
    };
    const api = realm.clients.find((client) => client.clientId === "dev-api-client");
    expect(api).toMatchObject({
      protocol: "openid-connect",
      publicClient: false,
      clientAuthenticatorType: "client-secret",
      authorizationServicesEnabled: true,
      serviceAccountsEnabled: true,
      directAccessGrantsEnabled: true,
      standardFlowEnabled: false,
      implicitFlowEnabled: false,
    });
    const audienceScope = realm.clientScopes.find((scope) => scope.protocolMappers.some((mapper) => mapper.protocolMapper === "oidc-audience-mapper"));
    expect(audienceScope?.protocolMappers[0]?.config["included.custom.audience"]).toBe("compliance-graph");
    expect(api?.defaultClientScopes).toContain(audienceScope?.name);
    expect(realm.clients.find((client) => client.clientId === "compliance-graph-frontend")).toMatchObject({ publicClient: true, standardFlowEnabled: true });
    expect(realm.roles.realm.map((role) => role.name).sort()).toEqual([
      "audit:read",
      "proofs:assess",
      "proofs:export",
      "proofs:read",
      "proofs:write",
      "schema:admin",
      "schema:publish",
      "travel-rule:read",
    ]);
    expect(readDevRealm()).toMatchObject({
      realm: "dev",
      audience: "compliance-graph",
      accessTokenTtlSeconds: 300,
      users: [
        { username: "demo-officer", roles: ["proofs:read", "proofs:export", "proofs:write", "proofs:assess", "travel-rule:read"] },
        { username: "demo-officer-2", roles: ["proofs:read", "proofs:export", "proofs:write", "proofs:assess", "travel-rule:read"] },
        { username: "demo-auditor", roles: ["proofs:read", "audit:read"] },
      ],
    });
  });

  it("gives the demo user a token through the API client's direct access grant, with the user's roles only", async () => {
    // The auditor may read but not write: the token carries the user's roles, not the API client's.
    const { status, body } = await passwordToken(stack.idp.tokenEndpoint, {
      client_id: "dev-api-client",
      client_secret: "dev-secret",
      username: "demo-auditor",
      password: "demo-password",
    });
    expect(status).toBe(200);
    const claims = decodeJwt(body.access_token!);
    expect(claims).toMatchObject({ aud: "compliance-graph", azp: "dev-api-client", preferred_username: "demo-auditor", typ: "Bearer" });
    const read = await stack.query("{ aopd { proofs(limit: 1) { id } } }", body.access_token);
    expect(read.body.errors).toBeUndefined();
    const write = await stack.query('mutation { aopd { requestAoppProof(input: { customerId: "c", asset: DTI4H95J0R2X }) { portalUrl } } }', body.access_token);
    expect(write.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  it("lets the demo auditor read the audit trail through the gateway, and refuses it to the demo officer, who has no audit:read", async () => {
    const auditor = await passwordToken(stack.idp.tokenEndpoint, {
      client_id: "dev-api-client",
      client_secret: "dev-secret",
      username: "demo-auditor",
      password: "demo-password",
    });
    const officer = await passwordToken(stack.idp.tokenEndpoint, {
      client_id: "dev-api-client",
      client_secret: "dev-secret",
      username: "demo-officer",
      password: "demo-password",
    });
    const requested = await stack.query(
      'mutation { aopd { requestMediaProof(input: { customerId: "CUST-REALM", asset: DTI4H95J0R2X, expectedAddress: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4" }) { id } } }',
      officer.body.access_token,
    );
    const id = (requested.body.data as { aopd: { requestMediaProof: { id: string } } }).aopd.requestMediaProof.id;
    const query = `{ aopd { auditTrail(filter: { proofId: "${id}" }) { entries { action actor { username client } } } } }`;
    const read = await stack.query(query, auditor.body.access_token);
    expect(read.body.errors).toBeUndefined();
    // The officer requested it through the API client; the gateway's internal token named them to aopd.
    expect((read.body.data as { aopd: { auditTrail: { entries: unknown[] } } }).aopd.auditTrail.entries).toEqual([
      { action: "REQUESTED", actor: { username: "demo-officer", client: "dev-api-client" } },
    ]);
    const refused = await stack.query(query, officer.body.access_token);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  it("keeps the public frontend client's tokens working beside API clients' (spec 5.4)", async () => {
    const frontend = await passwordToken(stack.idp.tokenEndpoint, {
      client_id: "compliance-graph-frontend",
      username: "demo-officer",
      password: "demo-password",
    });
    expect(frontend.status).toBe(200);
    expect(decodeJwt(frontend.body.access_token!)).toMatchObject({ azp: "compliance-graph-frontend", aud: "compliance-graph" });
    const api = await stack.fetchToken();
    for (const token of [frontend.body.access_token, api, frontend.body.access_token]) {
      expect((await stack.query("{ aopd { proofs(limit: 1) { id } } }", token)).body.errors).toBeUndefined();
    }
  });

  it("refuses a wrong password and a client without direct access grants, as Keycloak does", async () => {
    const wrong = await passwordToken(stack.idp.tokenEndpoint, {
      client_id: "dev-api-client",
      client_secret: "dev-secret",
      username: "demo-officer",
      password: "guess",
    });
    expect([wrong.status, wrong.body.error]).toEqual([400, "invalid_grant"]);
    const unknownUser = await passwordToken(stack.idp.tokenEndpoint, {
      client_id: "dev-api-client",
      client_secret: "dev-secret",
      username: "nobody",
      password: "demo-password",
    });
    expect([unknownUser.status, unknownUser.body.error]).toEqual([400, "invalid_grant"]);
    const notAllowed = await passwordToken(stack.idp.tokenEndpoint, {
      client_id: "no-direct-grants",
      client_secret: "s3cret",
      username: "demo-officer",
      password: "demo-password",
    });
    expect(notAllowed.body.error).toMatch(/unauthorized_client|invalid_request/);
    const noSecret = await passwordToken(stack.idp.tokenEndpoint, { client_id: "dev-api-client", username: "demo-officer", password: "demo-password" });
    expect(noSecret.status).toBe(401);
  });
});

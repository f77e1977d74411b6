import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevIdentityProvider, type RunningDevIdentityProvider } from "@compliance-graph/dev-identity-provider";
import { decodeClaims } from "../support/craft-token.js";

describe("the development identity provider at Keycloak's paths", () => {
  let idp: RunningDevIdentityProvider;
  beforeAll(async () => {
    idp = await startDevIdentityProvider();
  });
  afterAll(() => idp?.close());

  const form = (fields: Record<string, string>) => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });

  it("serves discovery and the certs endpoint under /auth/realms/dev", async () => {
    expect(idp.issuer).toMatch(/\/auth\/realms\/dev$/);
    const discovery = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as Record<string, string>;
    expect(discovery.issuer).toBe(idp.issuer);
    expect(discovery.token_endpoint).toBe(`${idp.issuer}/protocol/openid-connect/token`);
    expect(discovery.jwks_uri).toBe(`${idp.issuer}/protocol/openid-connect/certs`);
    const jwks = (await (await fetch(discovery.jwks_uri ?? "")).json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys[0]).toMatchObject({ kty: "RSA", alg: "RS256" });
    expect(jwks.keys[0]).not.toHaveProperty("d");
  });

  it("issues a Keycloak-shaped access token for the spec's client-credentials form", async () => {
    const response = await fetch(
      idp.tokenEndpoint,
      form({ client_id: "dev-api-client", grant_type: "client_credentials", client_secret: "dev-secret", scope: "openid" }),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { access_token: string; token_type: string };
    expect(body.token_type).toBe("Bearer");
    const claims = decodeClaims(body.access_token);
    expect(claims).toMatchObject({
      iss: idp.issuer,
      aud: "compliance-graph",
      azp: "dev-api-client",
      preferred_username: "service-account-dev-api-client",
      scope: "openid",
      realm_access: { roles: expect.arrayContaining(["proofs:read", "proofs:export", "proofs:write", "travel-rule:read"]) },
      resource_access: { "compliance-graph": { roles: expect.arrayContaining(["travel-rule:read"]) } },
    });
    expect(typeof claims.sub).toBe("string");
    expect(typeof claims.exp).toBe("number");
  });

  it("refuses a wrong client secret", async () => {
    const response = await fetch(
      idp.tokenEndpoint,
      form({ client_id: "dev-api-client", grant_type: "client_credentials", client_secret: "guess", scope: "openid" }),
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: "invalid_client" });
  });

  it("refuses to start in production", async () => {
    const previous = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    try {
      await expect(startDevIdentityProvider()).rejects.toThrow(/production/);
    } finally {
      process.env.NODE_ENV = previous;
    }
  });
});

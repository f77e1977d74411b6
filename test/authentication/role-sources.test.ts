import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRoleSources } from "@compliance-graph/identity";
import { startStack, type Stack } from "../support/start-stack.js";

/**
 * The development provider's tokens are Keycloak-shaped: roles in `realm_access` and
 * `resource_access`, only `openid` in `scope`. A gateway told to read roles from `scope` (as with
 * an Okta-style provider) must therefore grant none: the configured sources are the only ones.
 */
describe("where the gateway reads roles (OIDC_ROLE_SOURCES)", () => {
  let keycloakShaped: Stack;
  let scopeOnly: Stack;
  beforeAll(async () => {
    keycloakShaped = await startStack({ roleSources: parseRoleSources("realm_access") });
    scopeOnly = await startStack({ roleSources: parseRoleSources("scope") });
  });
  afterAll(async () => {
    await keycloakShaped?.close();
    await scopeOnly?.close();
  });

  it("grants the roles found at the configured sources, and none found elsewhere", async () => {
    const query = "{ aopd { proofs(limit: 1) { id } } }";
    const granted = await keycloakShaped.query(query, await keycloakShaped.fetchToken());
    expect(granted.body.errors, JSON.stringify(granted.body.errors)).toBeUndefined();
    const refused = await scopeOnly.query(query, await scopeOnly.fetchToken());
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });
});

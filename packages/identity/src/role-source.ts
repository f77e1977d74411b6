/**
 * Where an access token carries the caller's roles. Identity providers differ:
 * - `realm_access`: Keycloak realm roles (`realm_access.roles`);
 * - `resource_access:<client>`: Keycloak client roles of one client (`resource_access.<client>.roles`);
 * - `roles`: a top-level array claim (Azure AD / Entra ID app roles, Zitadel-style custom claims);
 * - `scope`: the space-separated `scope` claim (OAuth scopes named like roles, as Okta and Ory use);
 * - `permissions`: Auth0's RBAC array claim.
 * - `claim:<name>`: any other top-level array claim.
 */
export type RoleSource = { kind: "realm_access" } | { kind: "resource_access"; client: string } | { kind: "array_claim"; claim: string } | { kind: "scope" };

/** `OIDC_ROLE_SOURCES`' syntax: names as in `RoleSource`, comma-separated. */
export function parseRoleSources(text: string): RoleSource[] {
  const sources = text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part): RoleSource => {
      if (part === "realm_access") return { kind: "realm_access" };
      if (part === "scope") return { kind: "scope" };
      if (part === "roles" || part === "permissions") return { kind: "array_claim", claim: part };
      const [prefix, name] = part.split(/:(.*)/s, 2);
      if (prefix === "resource_access" && name) return { kind: "resource_access", client: name };
      if (prefix === "claim" && name) return { kind: "array_claim", claim: name };
      throw new Error(
        `OIDC_ROLE_SOURCES: ${JSON.stringify(part)} is not a role source; use realm_access, resource_access:<client>, roles, scope, permissions or claim:<name>.`,
      );
    });
  if (sources.length === 0) throw new Error("OIDC_ROLE_SOURCES names no role source.");
  return sources;
}

/** Keycloak's places, as the gateway reads them unless configured otherwise: realm roles and the API client's roles. */
export function keycloakRoleSources(roleClients: readonly string[]): RoleSource[] {
  return [{ kind: "realm_access" }, ...roleClients.map((client): RoleSource => ({ kind: "resource_access", client }))];
}

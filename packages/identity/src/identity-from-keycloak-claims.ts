import type { JWTPayload } from "jose";
import type { Identity } from "./identity.js";
import { isRole } from "./roles.js";

export interface KeycloakRoleSources {
  /**
   * Clients whose client roles (`resource_access.<client>.roles`) count. Usually the API's own
   * client, the one the audience names; roles of other clients mean nothing to this API.
   */
  roleClients: readonly string[];
}

function rolesIn(value: unknown): string[] {
  if (value === null || typeof value !== "object") return [];
  const list = (value as { roles?: unknown }).roles;
  return Array.isArray(list) ? list.filter((role): role is string => typeof role === "string") : [];
}

/**
 * Reads the identity out of a verified Keycloak-shaped access token: `sub`, `azp` (or the RFC 9068
 * `client_id`), `preferred_username`, `realm_access.roles` and `resource_access.<client>.roles`.
 * Only roles of the role model are kept, so an unrelated grant never widens access.
 */
export function identityFromKeycloakClaims(payload: JWTPayload, sources: KeycloakRoleSources): Identity {
  const granted = new Set<string>(rolesIn(payload.realm_access));
  const resourceAccess = payload.resource_access;
  if (resourceAccess !== null && typeof resourceAccess === "object") {
    for (const client of sources.roleClients) {
      for (const role of rolesIn((resourceAccess as Record<string, unknown>)[client])) granted.add(role);
    }
  }
  const client = typeof payload.azp === "string" ? payload.azp : typeof payload.client_id === "string" ? payload.client_id : "";
  const identity: Identity = { subject: payload.sub ?? "", client, roles: [...granted].filter(isRole).sort() };
  if (typeof payload.preferred_username === "string") identity.username = payload.preferred_username;
  return identity;
}

import type { JWTPayload } from "jose";
import type { Identity } from "./identity.js";
import type { RoleSource } from "./role-source.js";

function stringsIn(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function rolesAt(payload: JWTPayload, source: RoleSource): string[] {
  switch (source.kind) {
    case "realm_access":
      return stringsIn((payload.realm_access as { roles?: unknown } | undefined)?.roles);
    case "resource_access": {
      const access = payload.resource_access;
      if (access === null || typeof access !== "object") return [];
      return stringsIn((access as Record<string, { roles?: unknown } | undefined>)[source.client]?.roles);
    }
    case "array_claim":
      return stringsIn(payload[source.claim]);
    case "scope":
      return typeof payload.scope === "string" ? payload.scope.split(" ") : [];
  }
}

/**
 * Reads the identity out of a verified access token: `sub`, `azp` (or the RFC 9068 `client_id`),
 * `preferred_username`, and the roles found at the configured sources. Only roles somebody declares
 * (`isDeclaredRole`: at the gateway, the roles of the supergraph it serves) are kept, so an
 * unrelated grant or scope (`openid`, `offline_access`) never widens access.
 */
export function identityFromClaims(payload: JWTPayload, roleSources: readonly RoleSource[], isDeclaredRole: (role: string) => boolean): Identity {
  const granted = new Set<string>();
  for (const source of roleSources) for (const role of rolesAt(payload, source)) granted.add(role);
  const client = typeof payload.azp === "string" ? payload.azp : typeof payload.client_id === "string" ? payload.client_id : "";
  const identity: Identity = { subject: payload.sub ?? "", client, roles: [...granted].filter(isDeclaredRole).sort() };
  if (typeof payload.preferred_username === "string") identity.username = payload.preferred_username;
  return identity;
}

import { allRoles } from "@compliance-graph/identity";

export interface DevClient {
  clientId: string;
  clientSecret: string;
  /** Roles granted, as realm roles and as client roles of the audience client. */
  roles: string[];
}

export interface DevIdentityProviderConfig {
  /** `DEV_IDP_REALM`. @default "dev" */
  realm: string;
  /** `DEV_IDP_AUDIENCE`: the `aud` of the access tokens (Keycloak: the audience client scope). @default "compliance-graph" */
  audience: string;
  /** `DEV_IDP_CLIENT_ID`, `DEV_IDP_CLIENT_SECRET`, `DEV_IDP_ROLES` (comma-separated): one client. */
  clients: DevClient[];
  /** `DEV_IDP_ACCESS_TOKEN_TTL_SECONDS`. @default 300 // 5 minutes, Keycloak's default */
  accessTokenTtlSeconds: number;
}

export function devIdentityProviderConfigFromEnv(env: NodeJS.ProcessEnv = process.env): DevIdentityProviderConfig {
  const roles = env.DEV_IDP_ROLES === undefined ? [...allRoles] : env.DEV_IDP_ROLES.split(",").map((role) => role.trim()).filter(Boolean);
  return {
    realm: env.DEV_IDP_REALM ?? "dev",
    audience: env.DEV_IDP_AUDIENCE ?? "compliance-graph",
    clients: [{ clientId: env.DEV_IDP_CLIENT_ID ?? "dev-api-client", clientSecret: env.DEV_IDP_CLIENT_SECRET ?? "dev-secret", roles }],
    accessTokenTtlSeconds: Number(env.DEV_IDP_ACCESS_TOKEN_TTL_SECONDS ?? 300),
  };
}

import { readDevRealm } from "./keycloak-realm.js";

export interface DevClient {
  clientId: string;
  /** A confidential client's secret; absent for a public client (the web frontend). */
  clientSecret?: string;
  /** Roles of the client's service account (client credentials), as realm roles and as client roles of the audience client. */
  roles: string[];
  /** Client credentials grant (Keycloak: service accounts roles). @default true when it has a secret */
  serviceAccount?: boolean;
  /** Password grant for the realm's users (Keycloak: direct access grants). @default false */
  directAccessGrants?: boolean;
}

/** A person of the realm, for the password grant. */
export interface DevUser {
  username: string;
  password: string;
  roles: string[];
}

export interface DevIdentityProviderConfig {
  realm: string;
  /** The `aud` of the access tokens (Keycloak: the audience client scope). */
  audience: string;
  clients: DevClient[];
  users: DevUser[];
  accessTokenTtlSeconds: number;
}

/**
 * The realm file (`DEV_IDP_REALM_FILE`, default gateway/realm/dev-realm.json, the same file a real
 * Keycloak imports), with the older single-client variables on top: `DEV_IDP_CLIENT_ID`,
 * `DEV_IDP_CLIENT_SECRET` and `DEV_IDP_ROLES` (comma-separated) replace or add that client;
 * `DEV_IDP_REALM`, `DEV_IDP_AUDIENCE` and `DEV_IDP_ACCESS_TOKEN_TTL_SECONDS` replace the file's.
 */
export function devIdentityProviderConfigFromEnv(env: NodeJS.ProcessEnv = process.env): DevIdentityProviderConfig {
  const realm = readDevRealm(env.DEV_IDP_REALM_FILE || undefined);
  let clients = realm.clients;
  if (env.DEV_IDP_CLIENT_ID || env.DEV_IDP_CLIENT_SECRET || env.DEV_IDP_ROLES) {
    const clientId = env.DEV_IDP_CLIENT_ID ?? "dev-api-client";
    const existing = clients.find((client) => client.clientId === clientId);
    const roles = env.DEV_IDP_ROLES === undefined ? (existing?.roles ?? []) : env.DEV_IDP_ROLES.split(",").map((role) => role.trim()).filter(Boolean);
    const client: DevClient = { ...existing, clientId, clientSecret: env.DEV_IDP_CLIENT_SECRET ?? existing?.clientSecret ?? "dev-secret", roles, serviceAccount: true };
    clients = [...clients.filter((other) => other.clientId !== clientId), client];
  }
  return {
    realm: env.DEV_IDP_REALM ?? realm.realm,
    audience: env.DEV_IDP_AUDIENCE ?? realm.audience,
    clients,
    users: realm.users,
    accessTokenTtlSeconds: Number(env.DEV_IDP_ACCESS_TOKEN_TTL_SECONDS ?? realm.accessTokenTtlSeconds),
  };
}

import { readDevRealm, type DevClient, type DevUser } from "./keycloak-realm.js";

export type { DevClient, DevUser };

export interface DevIdentityProviderConfig {
  realm: string;
  /** The `aud` of the access tokens (Keycloak: the audience client scope). */
  audience: string;
  clients: DevClient[];
  users: DevUser[];
  accessTokenTtlSeconds: number;
}

/**
 * The realm file (`DEV_IDP_REALM_FILE`, default dev-identity-provider/realm/dev-realm.json, the same file a real
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
    const roles =
      env.DEV_IDP_ROLES === undefined
        ? (existing?.roles ?? [])
        : env.DEV_IDP_ROLES.split(",")
            .map((role) => role.trim())
            .filter(Boolean);
    const client: DevClient = {
      ...existing,
      clientId,
      clientSecret: env.DEV_IDP_CLIENT_SECRET ?? existing?.clientSecret ?? "dev-secret",
      roles,
      serviceAccount: true,
    };
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

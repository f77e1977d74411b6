import { readFileSync } from "node:fs";

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
  /** Authorization code flow with PKCE through the sign-in page (Keycloak: standard flow). @default false */
  standardFlow?: boolean;
  /**
   * Where the code flow may return to, as Keycloak writes them (a trailing `*` matches any rest);
   * the development provider also accepts each on its own base URL's origin. @default none
   */
  redirectUris?: string[];
}

/** A person of the realm, for the password grant. */
export interface DevUser {
  username: string;
  password: string;
  roles: string[];
}

/** The committed realm: the file a real Keycloak imports with `--import-realm`, and the dev provider reads. */
export const devRealmFile = new URL("../realm/dev-realm.json", import.meta.url);

/** The parts of a Keycloak realm representation (an export) the development provider reads. */
interface RealmRepresentation {
  realm: string;
  accessTokenLifespan?: number;
  clientScopes?: { name: string; protocolMappers?: { protocolMapper: string; config?: Record<string, string> }[] }[];
  clients?: {
    clientId: string;
    enabled?: boolean;
    publicClient?: boolean;
    secret?: string;
    serviceAccountsEnabled?: boolean;
    directAccessGrantsEnabled?: boolean;
    standardFlowEnabled?: boolean;
    redirectUris?: string[];
    defaultClientScopes?: string[];
  }[];
  users?: {
    username: string;
    enabled?: boolean;
    serviceAccountClientId?: string;
    realmRoles?: string[];
    credentials?: { type: string; value?: string; temporary?: boolean }[];
  }[];
}

export interface DevRealm {
  realm: string;
  audience: string;
  accessTokenTtlSeconds: number;
  clients: DevClient[];
  users: DevUser[];
}

/**
 * Reads a Keycloak realm export into what the development provider serves: the realm name, the
 * audience its audience client scope adds, the token lifetime, the enabled clients (confidential
 * ones with their secret and their service account's realm roles; public ones), and the users with
 * a password (for the direct access grant). Throws naming what the file lacks.
 */
export function readDevRealm(file: URL | string = devRealmFile): DevRealm {
  const rep = JSON.parse(readFileSync(file, "utf8")) as RealmRepresentation;
  const where = `The realm file ${String(file)}`;
  if (!rep.realm) throw new Error(`${where} names no realm.`);
  const audiences = (rep.clientScopes ?? []).flatMap((scope) =>
    (scope.protocolMappers ?? [])
      .filter((mapper) => mapper.protocolMapper === "oidc-audience-mapper")
      .map((mapper) => ({ scope: scope.name, audience: mapper.config?.["included.custom.audience"] })),
  );
  const audience = audiences.find((entry) => entry.audience)?.audience;
  if (!audience) throw new Error(`${where} has no client scope with an audience mapper (oidc-audience-mapper with included.custom.audience).`);
  const audienceScopes = new Set(audiences.map((entry) => entry.scope));
  const users = rep.users ?? [];
  const clients: DevClient[] = (rep.clients ?? [])
    .filter((client) => client.enabled !== false && (client.defaultClientScopes ?? []).some((scope) => audienceScopes.has(scope)))
    .map((client) => {
      const serviceAccount = users.find((user) => user.serviceAccountClientId === client.clientId);
      return {
        clientId: client.clientId,
        ...(client.publicClient ? {} : { clientSecret: client.secret ?? "" }),
        roles: client.serviceAccountsEnabled ? [...(serviceAccount?.realmRoles ?? [])] : [],
        serviceAccount: client.serviceAccountsEnabled === true && !client.publicClient,
        directAccessGrants: client.directAccessGrantsEnabled === true,
        ...(client.standardFlowEnabled ? { standardFlow: true, redirectUris: [...(client.redirectUris ?? [])] } : {}),
      };
    });
  const people: DevUser[] = users.flatMap((user) => {
    const password = user.credentials?.find((credential) => credential.type === "password")?.value;
    return user.enabled !== false && !user.serviceAccountClientId && password
      ? [{ username: user.username, password, roles: [...(user.realmRoles ?? [])] }]
      : [];
  });
  return { realm: rep.realm, audience, accessTokenTtlSeconds: rep.accessTokenLifespan ?? 300, clients, users: people };
}

import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import type { KoaContextWithOIDC } from "oidc-provider";
import { devIdentityProviderConfigFromEnv, type DevClient, type DevIdentityProviderConfig } from "./dev-identity-provider-config.js";

export interface DevIdentityProviderOptions extends Partial<DevIdentityProviderConfig> {
  /** The public base URL the provider is reached at, e.g. `http://localhost:4000`. */
  baseUrl: string;
  /** RS256 private JWKs (with `kid`); the first signs. @default one generated key */
  signingKeys?: JWK[];
}

export interface DevIdentityProvider {
  /** `<baseUrl>/auth/realms/<realm>`: the `OIDC_ISSUER` of the gateway. */
  issuer: string;
  /** `/auth/realms/<realm>`. */
  realmPath: string;
  /** `<issuer>/protocol/openid-connect/token`. */
  tokenEndpoint: string;
  audience: string;
  /** Serves the request when its path is under `realmPath`; returns false otherwise. */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
  /**
   * Key rotation as Keycloak does it: a new key (generated, or the one given) signs from now on
   * and the old ones stay published, so tokens already issued still verify.
   */
  rotateSigningKey(newKey?: JWK): Promise<{ kid: string }>;
}

/** Keycloak's service account user id is a UUID; a stable one per client keeps `sub` stable. */
function serviceAccountId(clientId: string): string {
  const hex = createHash("sha256").update(`service-account:${clientId}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export async function generateDevSigningKey(kid: string = randomUUID()): Promise<JWK> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" };
}

/**
 * A real OIDC provider (`oidc-provider`) for development and tests, at Keycloak's paths
 * (`/auth/realms/<realm>/.well-known/openid-configuration`, `.../protocol/openid-connect/token`,
 * `.../protocol/openid-connect/certs`), issuing Keycloak-shaped JWT access tokens through the
 * client-credentials grant with the form fields of spec 4.3. It refuses to exist in production.
 */
export async function createDevIdentityProvider(options: DevIdentityProviderOptions): Promise<DevIdentityProvider> {
  if (process.env.NODE_ENV === "production") {
    throw new Error("The development identity provider refuses to run with NODE_ENV=production; configure OIDC_ISSUER instead.");
  }
  const config = { ...devIdentityProviderConfigFromEnv(), ...options };
  const realmPath = `/auth/realms/${config.realm}`;
  const issuer = `${options.baseUrl.replace(/\/+$/, "")}${realmPath}`;
  const keys: JWK[] = options.signingKeys?.length ? [...options.signingKeys] : [await generateDevSigningKey()];
  const cookieKeys = [randomBytes(32).toString("hex")];
  const clientsById = new Map<string, DevClient>(config.clients.map((client) => [client.clientId, client]));

  const customizeToken = (_ctx: KoaContextWithOIDC, token: { clientId?: string }, jwt: { payload: Record<string, unknown> }) => {
    const clientId = token.clientId ?? "";
    const roles = clientsById.get(clientId)?.roles ?? [];
    // What a Keycloak service-account token carries, beside iss, aud, exp, iat, jti.
    Object.assign(jwt.payload, {
      sub: serviceAccountId(clientId),
      typ: "Bearer",
      azp: clientId,
      preferred_username: `service-account-${clientId}`,
      realm_access: { roles: [...roles, `default-roles-${config.realm}`, "offline_access"] },
      resource_access: { [config.audience]: { roles }, account: { roles: ["manage-account", "view-profile"] } },
      scope: jwt.payload.scope ?? "openid",
    });
  };

  // Loaded here, not at import: a production gateway never loads the development provider's code.
  const { default: Provider } = await import("oidc-provider");
  const build = (signingKid: string) =>
    new Provider(issuer, {
      clients: config.clients.map((client) => ({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        grant_types: ["client_credentials"],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: "client_secret_post",
      })),
      jwks: { keys },
      cookies: { keys: cookieKeys },
      scopes: ["openid", "profile", "email"],
      ttl: { ClientCredentials: config.accessTokenTtlSeconds },
      routes: {
        authorization: "/protocol/openid-connect/auth",
        token: "/protocol/openid-connect/token",
        jwks: "/protocol/openid-connect/certs",
        userinfo: "/protocol/openid-connect/userinfo",
        end_session: "/protocol/openid-connect/logout",
        introspection: "/protocol/openid-connect/token/introspect",
        revocation: "/protocol/openid-connect/revoke",
      },
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          // The spec's form has no `resource` field: every token is for the API's audience.
          defaultResource: () => `urn:${config.audience}`,
          useGrantedResource: () => true,
          getResourceServerInfo: () => ({
            scope: "openid profile email",
            audience: config.audience,
            accessTokenTTL: config.accessTokenTtlSeconds,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: "RS256", kid: signingKid } },
          }),
        },
      },
      formats: { customizers: { jwt: customizeToken as never } },
    });

  let provider = build(keys[0]?.kid ?? "");
  let callback = provider.callback();

  return {
    issuer,
    realmPath,
    tokenEndpoint: `${issuer}/protocol/openid-connect/token`,
    audience: config.audience,
    handle(request, response) {
      const url = request.url ?? "/";
      if (url !== realmPath && !url.startsWith(`${realmPath}/`) && !url.startsWith(`${realmPath}?`)) return false;
      // Mounted under the realm path as a framework would: the provider sees the rest of the path.
      (request as IncomingMessage & { originalUrl?: string }).originalUrl = url;
      request.url = url.slice(realmPath.length) || "/";
      callback(request, response);
      return true;
    },
    async rotateSigningKey(newKey) {
      const key = newKey ?? (await generateDevSigningKey());
      if (typeof key.kid !== "string") throw new Error("A signing key needs a kid.");
      keys.unshift(key);
      // oidc-provider's keystore is fixed at construction; a new instance over the same clients
      // and keys is the rotation. Client-credentials tokens are self-contained JWTs, so no state is lost.
      provider = build(key.kid);
      callback = provider.callback();
      return { kid: key.kid };
    },
  };
}

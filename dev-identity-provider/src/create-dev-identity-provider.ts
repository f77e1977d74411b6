import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import type { KoaContextWithOIDC } from "oidc-provider";
import { devIdentityProviderConfigFromEnv, type DevClient, type DevIdentityProviderConfig, type DevUser } from "./dev-identity-provider-config.js";
import type { RouteDefinition } from "@compliance-graph/process-shell";
import { devLoginPage } from "./dev-login-page.js";
import { devLogoutSource } from "./dev-logout-page.js";
import { redirectUriMatcher } from "./redirect-uri-matcher.js";

export interface DevIdentityProviderOptions extends Partial<DevIdentityProviderConfig> {
  /** The public base URL the provider is reached at, e.g. `http://localhost:4000`. */
  baseUrl: string;
  /** RS256 private JWKs (with `kid`); the first signs. @default one generated key */
  signingKeys?: JWK[];
  /**
   * The roles the gateway serves now (`RunningGateway.servedRoles`: every role its supergraph
   * declares), asked at each token: a domain published a moment ago can be called at once.
   * @default none: the realm's roles only
   */
  servedRoles?: () => readonly string[];
  /**
   * The service accounts that get every served role beside their own; the realm's users never do
   * (the demo users keep their fixed roles). @default ["dev-api-client"]
   */
  servedRolesTo?: readonly string[];
}

export interface DevIdentityProvider {
  /** `<baseUrl>/auth/realms/<realm>`: the `OIDC_ISSUER` of the gateway. */
  issuer: string;
  /** `/auth/realms/<realm>`. */
  realmPath: string;
  /** `<issuer>/protocol/openid-connect/token`. */
  tokenEndpoint: string;
  audience: string;
  /** How long an access token it issues lives, in seconds (the realm's `accessTokenLifespan`, or `DEV_IDP_ACCESS_TOKEN_TTL_SECONDS`). */
  accessTokenTtlSeconds: number;
  /** `<issuer>/protocol/openid-connect/auth`: where the authorization code flow starts. */
  authorizationEndpoint: string;
  /** Serves the request when its path is under `realmPath`; returns false otherwise. */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
  /** The realm's paths as public routes of a server's route table (the gateway's under `npm start`). */
  routes: RouteDefinition<never>[];
  /**
   * Key rotation as Keycloak does it: a new key (generated, or the one given) signs from now on
   * and the old ones stay published, so tokens already issued still verify.
   */
  rotateSigningKey(newKey?: JWK): Promise<{ kid: string }>;
}

/** Keycloak's user ids are UUIDs; a stable one per service account or user keeps `sub` stable. */
function userId(name: string): string {
  const hex = createHash("sha256").update(name).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function samePassword(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

export async function generateDevSigningKey(kid: string = randomUUID()): Promise<JWK> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" };
}

/**
 * A real OIDC provider (`oidc-provider`) for development and tests, at Keycloak's paths
 * (`/auth/realms/<realm>/.well-known/openid-configuration`, `.../protocol/openid-connect/token`,
 * `.../protocol/openid-connect/certs`), issuing Keycloak-shaped JWT access tokens through the
 * client-credentials grant with the form fields of spec 4.3 (service accounts), the password
 * grant (direct access grants, for the realm's users, confidential and public clients alike), and
 * the authorization code flow with PKCE and refresh tokens through a sign-in page of its own for
 * clients with the standard flow (the officer console: `compliance-graph-frontend`). Its
 * clients, users, roles and audience come from a Keycloak realm export (dev-identity-provider/realm/). It refuses
 * to exist in production.
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
  const usersByName = new Map<string, DevUser>((config.users ?? []).map((user) => [user.username, user]));
  // The code flow's account id is the user's `sub`, as Keycloak's user ids are.
  const usersById = new Map<string, DevUser>((config.users ?? []).map((user) => [userId(`user:${user.username}`), user]));
  // A password grant's user, from the grant to the token customizer (which gets the same token).
  const userOfToken = new WeakMap<object, DevUser>();
  const servedRolesTo = new Set(options.servedRolesTo ?? ["dev-api-client"]);
  const redirectAllowed = new Map(config.clients.map((client) => [client.clientId, redirectUriMatcher(client.redirectUris ?? [], options.baseUrl)]));

  const customizeToken = (_ctx: KoaContextWithOIDC, token: { clientId?: string; accountId?: string }, jwt: { payload: Record<string, unknown> }) => {
    const clientId = token.clientId ?? "";
    // The password grant's user, or the code flow's (and its refresh tokens'), by account id.
    const user = userOfToken.get(token) ?? (token.accountId === undefined ? undefined : usersById.get(token.accountId));
    // What a Keycloak token carries, beside iss, aud, exp, iat, jti: a service account's own roles
    // (realm roles, and client roles of the API client), or a user's realm roles.
    const ownRoles = user ? user.roles : (clientsById.get(clientId)?.roles ?? []);
    const roles = !user && servedRolesTo.has(clientId) ? [...new Set([...ownRoles, ...(options.servedRoles?.() ?? [])])] : ownRoles;
    Object.assign(jwt.payload, {
      sub: userId(user ? `user:${user.username}` : `service-account:${clientId}`),
      typ: "Bearer",
      azp: clientId,
      preferred_username: user ? user.username : `service-account-${clientId}`,
      realm_access: { roles: [...roles, `default-roles-${config.realm}`, "offline_access"] },
      resource_access: user
        ? { account: { roles: ["manage-account", "view-profile"] } }
        : { [config.audience]: { roles }, account: { roles: ["manage-account", "view-profile"] } },
      scope: jwt.payload.scope ?? "openid",
    });
  };

  // Loaded here, not at import: a production gateway never loads the development provider's code.
  const { default: Provider, errors } = await import("oidc-provider");
  const resourceServerInfo = (signingKid: string) => ({
    scope: "openid profile email",
    audience: config.audience,
    accessTokenTTL: config.accessTokenTtlSeconds,
    accessTokenFormat: "jwt" as const,
    jwt: { sign: { alg: "RS256" as const, kid: signingKid } },
  });
  const build = (signingKid: string) => {
    const provider = new Provider(issuer, {
      clients: config.clients.map((client) => ({
        client_id: client.clientId,
        ...(client.clientSecret === undefined
          ? { token_endpoint_auth_method: "none" }
          : { client_secret: client.clientSecret, token_endpoint_auth_method: "client_secret_post" }),
        grant_types: [
          ...((client.serviceAccount ?? client.clientSecret !== undefined) && client.clientSecret !== undefined ? ["client_credentials"] : []),
          ...(client.directAccessGrants ? ["password"] : []),
          ...(client.standardFlow ? ["authorization_code", "refresh_token"] : []),
        ],
        response_types: client.standardFlow ? ["code"] : [],
        // oidc-provider wants concrete URIs at registration; the patterns are checked by redirectUriAllowed below.
        redirect_uris: client.standardFlow ? [`${options.baseUrl.replace(/\/+$/, "")}/`] : [],
        ...(client.standardFlow ? { post_logout_redirect_uris: [`${options.baseUrl.replace(/\/+$/, "")}/`] } : {}),
      })),
      findAccount: (_ctx: unknown, id: string) => {
        const user = usersById.get(id);
        return user ? { accountId: id, claims: () => ({ sub: id, preferred_username: user.username }) } : undefined;
      },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${realmPath}/login/${interaction.uid}` },
      // The realm's own first-party clients need no consent screen, as in Keycloak with consent off:
      // the grant covers the OpenID scopes and the API's audience.
      loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
        const { client, session } = ctx.oidc;
        const existing = ctx.oidc.result?.consent?.grantId ?? (client ? session?.grantIdFor(client.clientId) : undefined);
        if (existing) return provider.Grant.find(existing);
        if (!client || !session?.accountId) return undefined;
        const grant = new provider.Grant({ accountId: session.accountId, clientId: client.clientId });
        grant.addOIDCScope("openid profile email");
        grant.addResourceScope(`urn:${config.audience}`, "openid profile email");
        await grant.save();
        return grant;
      },
      // Keycloak hands a refresh token to every standard-flow client; the console renews with it.
      issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed("refresh_token"),
      jwks: { keys },
      cookies: { keys: cookieKeys },
      scopes: ["openid", "profile", "email"],
      // The ID token's profile claims, as Keycloak's `profile` scope gives them.
      claims: { openid: ["sub"], profile: ["preferred_username"] },
      // Keycloak's defaults where the realm file says nothing: a code lives a minute, a sign-in
      // page ten, a session and its refresh tokens at most a day (SSO session max).
      ttl: {
        ClientCredentials: config.accessTokenTtlSeconds,
        AccessToken: config.accessTokenTtlSeconds,
        IdToken: config.accessTokenTtlSeconds,
        AuthorizationCode: 60,
        Interaction: 600,
        Grant: 86_400,
        Session: 86_400,
        RefreshToken: 86_400,
      },
      // A console on another origin than the provider (the gateway's own dev mode) calls the token
      // endpoint from the page: allowed for the origins of the client's redirect URIs, as Keycloak's "+" web origins.
      clientBasedCORS: (_ctx: unknown, origin: string, client: { clientId: string }) => redirectAllowed.get(client.clientId)?.(`${origin}/`) ?? false,
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
        rpInitiatedLogout: { enabled: true, logoutSource: devLogoutSource },
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          // The spec's form has no `resource` field: every token is for the API's audience.
          defaultResource: () => `urn:${config.audience}`,
          useGrantedResource: () => true,
          getResourceServerInfo: () => resourceServerInfo(signingKid),
        },
      },
      formats: { customizers: { jwt: customizeToken as never } },
    });
    // Keycloak's redirect URI patterns (`http://localhost:4000/*`), which oidc-provider has no notion of.
    provider.Client.prototype.redirectUriAllowed = function (this: { clientId: string }, value: string) {
      return redirectAllowed.get(this.clientId)?.(value) ?? false;
    };
    provider.Client.prototype.postLogoutRedirectUriAllowed = provider.Client.prototype.redirectUriAllowed;
    // The direct access grant (Keycloak's name for OAuth's password grant), which oidc-provider
    // leaves to the deployer: a realm user's token for a client that allows it.
    provider.registerGrantType(
      "password",
      async (ctx: KoaContextWithOIDC) => {
        const { client, params } = ctx.oidc;
        const user = usersByName.get(String(params?.username ?? ""));
        if (!client || !clientsById.get(client.clientId)?.directAccessGrants)
          throw new errors.UnauthorizedClient("direct access grants are not enabled for this client");
        if (!user || !samePassword(String(params?.password ?? ""), user.password)) throw new errors.InvalidGrant("invalid user credentials");
        const token = new provider.ClientCredentials({ client, scope: "openid profile email" });
        userOfToken.set(token, user);
        token.resourceServer = new provider.ResourceServer(`urn:${config.audience}`, resourceServerInfo(signingKid));
        const value = await token.save();
        ctx.body = { access_token: value, token_type: "Bearer", expires_in: token.expiration, scope: token.scope };
      },
      ["username", "password", "scope"],
    );
    return provider;
  };

  let provider = build(keys[0]?.kid ?? "");
  let callback = provider.callback();
  const loginPage = devLoginPage({
    provider: () => provider,
    realmPath,
    realmName: config.realm,
    findUser: (username, password) => {
      const user = usersByName.get(username);
      // Compared even for an unknown name, so the time taken does not tell which names exist.
      const matches = samePassword(password, user?.password ?? "\u0000no user");
      return user && matches ? user : undefined;
    },
    accountIdOf: (user) => userId(`user:${user.username}`),
  });

  const realm: Omit<DevIdentityProvider, "routes"> = {
    issuer,
    realmPath,
    tokenEndpoint: `${issuer}/protocol/openid-connect/token`,
    authorizationEndpoint: `${issuer}/protocol/openid-connect/auth`,
    audience: config.audience,
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    handle(request, response) {
      const url = request.url ?? "/";
      if (url !== realmPath && !url.startsWith(`${realmPath}/`) && !url.startsWith(`${realmPath}?`)) return false;
      if (url.startsWith(`${realmPath}/login/`)) {
        loginPage(request, response).catch(() => {
          if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
          response.end("The sign-in failed.");
        });
        return true;
      }
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
  const serve = ({ request, response }: { request: IncomingMessage; response: ServerResponse }) => {
    if (!realm.handle(request, response)) response.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
  };
  return {
    ...realm,
    routes: [
      { path: realmPath, access: "public", handle: serve },
      { path: `${realmPath}/*`, access: "public", handle: serve },
    ],
  };
}

import { UserManager, WebStorageStateStore, type User } from "oidc-client-ts";
import type { ConsoleConfig } from "./console-config.js";
import { saveDrafts } from "./form-drafts.js";
import type { Role } from "./graphql/api-values.js";

/**
 * The roles the token carries, asked by the roles the API names (`Role`, from the schema's
 * `@requiresRole`): each screen and control shows only when the token carries its role, and a
 * role the API does not name fails the type check.
 */
export interface Roles {
  has(role: Role): boolean;
}

export interface OfficerSession {
  user: User;
  name: string;
  roles: Roles;
  /** The access token, renewed first when it is about to expire. */
  accessToken(): Promise<string>;
  /** After the API refused the token (401): renew it once, or sign in again. */
  renew(): Promise<string>;
  signOut(): Promise<void>;
}

const callbackPath = "/console/callback";

function rolesOf(accessToken: string): Set<string> {
  try {
    const payload = JSON.parse(atob(accessToken.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))) as { realm_access?: { roles?: string[] } };
    return new Set(payload.realm_access?.roles ?? []);
  } catch {
    return new Set();
  }
}

/**
 * Signs the officer in with the authorization code flow and PKCE (oidc-client-ts), as the public
 * client of spec 5.4. Tokens stay in session storage (gone with the tab, never in local storage);
 * the library renews the access token with the refresh token a minute before it expires, in the
 * background, so nothing on screen is lost; the place the officer was at (path and query: the
 * filter, sort and page) travels through the sign-in as the OIDC `state` and is restored after it.
 * Resolves undefined while the browser is being sent to the identity provider.
 */
export async function startOfficerSession(config: ConsoleConfig): Promise<OfficerSession | undefined> {
  const manager = new UserManager({
    authority: config.issuer,
    client_id: config.clientId,
    redirect_uri: `${location.origin}${callbackPath}`,
    post_logout_redirect_uri: `${location.origin}/console/`,
    response_type: "code",
    scope: "openid profile",
    userStore: new WebStorageStateStore({ store: sessionStorage }),
    automaticSilentRenew: true,
    accessTokenExpiringNotificationTimeInSeconds: 60,
  });
  let user: User | null;
  if (location.pathname === callbackPath) {
    user = await manager.signinRedirectCallback();
    const back = typeof user.state === "string" && user.state.startsWith("/console/") ? user.state : "/console/";
    history.replaceState(null, "", back);
  } else {
    user = await manager.getUser();
  }
  if (!user || user.expired) {
    if (user?.refresh_token) {
      user = await manager.signinSilent().catch(() => null);
    }
    if (!user || user.expired) {
      await manager.signinRedirect({ state: `${location.pathname}${location.search}` });
      return undefined;
    }
  }
  const session: OfficerSession = {
    user,
    name: String(user.profile.preferred_username ?? user.profile.sub),
    roles: rolesOf(user.access_token),
    async accessToken() {
      if (session.user.expires_in !== undefined && session.user.expires_in < 5) return session.renew();
      return session.user.access_token;
    },
    async renew() {
      const renewed = await manager.signinSilent().catch(() => null);
      if (!renewed) {
        // The provider has forgotten the session (a restart): what was typed waits for the return.
        saveDrafts(document);
        await manager.signinRedirect({ state: `${location.pathname}${location.search}` });
        throw new Error("signing in again");
      }
      return renewed.access_token;
    },
    // With the ID token as hint the provider signs out without a second page (Keycloak does, and the
    // development provider too); `ui_locales` gives any page it shows the console's language.
    signOut: () => manager.signoutRedirect({ id_token_hint: session.user.id_token, extraQueryParams: { ui_locales: document.documentElement.lang || "en" } }),
  };
  manager.events.addUserLoaded((renewed) => {
    session.user = renewed;
    session.roles = rolesOf(renewed.access_token);
  });
  return session;
}

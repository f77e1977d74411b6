/** The development identity provider: an OIDC provider at Keycloak's paths for trials and tests, never in production. */
export { createDevIdentityProvider, generateDevSigningKey, type DevIdentityProvider, type DevIdentityProviderOptions } from "./create-dev-identity-provider.js";
export { startDevIdentityProvider, type RunningDevIdentityProvider } from "./start-dev-identity-provider.js";
export { devIdentityProviderConfigFromEnv, type DevClient, type DevIdentityProviderConfig, type DevUser } from "./dev-identity-provider-config.js";
export { readDevRealm, devRealmFile, type DevRealm } from "./keycloak-realm.js";

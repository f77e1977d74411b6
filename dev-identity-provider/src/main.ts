import { createLogger, onShutdownSignal } from "@compliance-graph/process-shell";
import { parseSigningKey, persistentSigningKey } from "./persistent-signing-key.js";
import { startDevIdentityProvider } from "./start-dev-identity-provider.js";

// The development identity provider as a process of its own:
// `node --import tsx dev-identity-provider/src/main.ts`, at DEV_IDP_HOST:DEV_IDP_PORT
// (127.0.0.1:8080; DEV_IDP_PUBLIC_URL, when set, is the base URL its issuer carries), its realm from DEV_IDP_REALM_FILE, its signing key
// DEV_IDP_SIGNING_KEY (a private RSA JWK, from a Secret) or else kept in DEV_IDP_SIGNING_KEY_FILE
// (.data/dev-idp-signing-key.json), so that its tokens survive a restart.
// Point the gateway at it with OIDC_ISSUER=http://127.0.0.1:8080/auth/realms/dev.
const logger = createLogger("dev-idp");
const signingKey = process.env.DEV_IDP_SIGNING_KEY
  ? parseSigningKey(process.env.DEV_IDP_SIGNING_KEY, "DEV_IDP_SIGNING_KEY")
  : await persistentSigningKey(process.env.DEV_IDP_SIGNING_KEY_FILE ?? ".data/dev-idp-signing-key.json");
const provider = await startDevIdentityProvider({
  port: Number(process.env.DEV_IDP_PORT ?? 8080),
  host: process.env.DEV_IDP_HOST ?? "127.0.0.1",
  ...(process.env.DEV_IDP_PUBLIC_URL ? { publicUrl: process.env.DEV_IDP_PUBLIC_URL } : {}),
  signingKeys: [signingKey],
});
logger.info({ issuer: provider.issuer, tokenEndpoint: provider.tokenEndpoint }, "development identity provider listening");
onShutdownSignal(logger, () => provider.close());

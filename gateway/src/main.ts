import cluster from "node:cluster";
import { createLogger, onShutdownSignal, portInUseMessage, startTracing } from "@compliance-graph/process-shell";
import type * as DevIdentityProviderModule from "@compliance-graph/dev-identity-provider";
import type { DevIdentityProvider } from "@compliance-graph/dev-identity-provider";
import { gatewayOptionsFromEnv } from "./gateway-options-from-env.js";
import { gatewayWorkersFromEnv, runGatewayWorkers } from "./gateway-workers.js";
import { startGateway } from "./start-gateway.js";

// Runs the gateway on its own: `node --import tsx gateway/src/main.ts`. With
// DEV_IDENTITY_PROVIDER=true it also serves the development identity provider at
// /auth/realms/<realm> on its own port and trusts it (refused in production). The provider is a
// workspace of its own, a development dependency only, loaded here on demand, so a production
// install of the gateway (npm ci --omit=dev) carries neither it nor oidc-provider.
// With GATEWAY_WORKERS above 1 this process only supervises; each worker runs the code below.
const logger = createLogger("gateway");
const env = { ...process.env };
const workers = gatewayWorkersFromEnv(env);
if (workers > 1 && cluster.isPrimary) {
  await runGatewayWorkers(workers, env, logger);
} else {
  await serve();
}

async function serve(): Promise<void> {
  // First: the spans of everything started below go to OTEL_EXPORTER_OTLP_ENDPOINT when it is set.
  const tracing = startTracing("gateway", env);
  // Before start-up, so that a gateway still starting stops on SIGTERM too.
  const started: { gateway?: Awaited<ReturnType<typeof startGateway>> } = {};
  onShutdownSignal(logger, async () => {
    await started.gateway?.close();
    await tracing.shutdown();
  });
  let devIdentityProvider: DevIdentityProvider | undefined;
  if (env.DEV_IDENTITY_PROVIDER === "true") {
    if (env.NODE_ENV === "production") throw new Error("DEV_IDENTITY_PROVIDER=true is refused in production.");
    const baseUrl = env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT ?? 4000}`;
    // Loaded only when asked for: the container images leave the development provider out altogether.
    devIdentityProvider = await (
      await loadDevIdentityProvider()
    ).createDevIdentityProvider({ baseUrl, servedRoles: () => started.gateway?.servedRoles() ?? [] });
    env.OIDC_ISSUER ??= devIdentityProvider.issuer;
    env.OIDC_AUDIENCE ??= devIdentityProvider.audience;
  }
  const options = await gatewayOptionsFromEnv(env, logger);
  try {
    started.gateway = await startGateway({
      ...options,
      logger,
      ...(devIdentityProvider ? { routes: devIdentityProvider.routes } : {}),
    });
  } catch (error) {
    const portTaken = portInUseMessage(error, { [Number(env.PORT ?? 4000)]: "PORT", [Number(env.METRICS_PORT)]: "METRICS_PORT" });
    if (!portTaken) throw error;
    logger.fatal(portTaken);
    process.exit(1);
  }
}

async function loadDevIdentityProvider(): Promise<typeof DevIdentityProviderModule> {
  try {
    return await import("@compliance-graph/dev-identity-provider");
  } catch (error) {
    throw new Error(
      `DEV_IDENTITY_PROVIDER=true needs the development identity provider (@compliance-graph/dev-identity-provider), a development dependency this install does not have: ${(error as Error).message}`,
    );
  }
}

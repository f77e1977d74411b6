import { insecureDevelopmentIdentityFromEnv, internalTokenVerifierFromEnv } from "@compliance-graph/identity";
import { createLogger, onShutdownSignal, portInUseMessage } from "@compliance-graph/process-shell";
import { startRegistry } from "./start-registry.js";

// Runs the schema registry on its own: `node --import tsx registry/src/main.ts`.
const logger = createLogger("registry");
const authenticate = internalTokenVerifierFromEnv("registry");
const registry = await startRegistry({
  logger,
  ...(authenticate ? { authenticate } : {}),
  insecureDevelopmentIdentity: insecureDevelopmentIdentityFromEnv(),
}).catch((error: unknown) => {
  const portTaken = portInUseMessage(error, { [Number(process.env.REGISTRY_PORT ?? 4010)]: "REGISTRY_PORT" });
  if (!portTaken) throw error;
  logger.fatal(portTaken);
  process.exit(1);
});
onShutdownSignal(logger, () => registry.close());

import { insecureDevelopmentIdentityFromEnv, internalTokenVerifierFromEnv } from "@compliance-graph/identity";
import { createLogger, metricsExposureFromEnv, onShutdownSignal, portInUseMessage, startTracing } from "@compliance-graph/process-shell";
import { startTrpd } from "./start-trpd.js";

// Runs the trpd subgraph on its own: `node --import tsx subgraphs/trpd/src/main.ts`.
// First: the spans of everything started below go to OTEL_EXPORTER_OTLP_ENDPOINT when it is set.
const tracing = startTracing("trpd");
const logger = createLogger("trpd");
const authenticate = internalTokenVerifierFromEnv("trpd");
const trpd = await startTrpd({
  logger,
  metricsExposure: metricsExposureFromEnv(),
  ...(authenticate ? { authenticate } : {}),
  insecureDevelopmentIdentity: insecureDevelopmentIdentityFromEnv(),
}).catch((error: unknown) => {
  const portTaken = portInUseMessage(error, { [Number(process.env.TRPD_PORT ?? 4002)]: "TRPD_PORT", [Number(process.env.METRICS_PORT)]: "METRICS_PORT" });
  if (!portTaken) throw error;
  logger.fatal(portTaken);
  process.exit(1);
});
onShutdownSignal(logger, async () => {
  await trpd.close();
  await tracing.shutdown();
});

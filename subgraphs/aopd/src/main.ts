import { insecureDevelopmentIdentityFromEnv, internalTokenVerifierFromEnv } from "@compliance-graph/identity";
import { createLogger, metricsExposureFromEnv, onShutdownSignal, portInUseMessage, startTracing } from "@compliance-graph/process-shell";
import { startAopd, type RunningAopd } from "./start-aopd.js";

/**
 * The aopd deployable: `node --import tsx subgraphs/aopd/src/main.ts`, configured by the
 * environment. Callers prove who they are with the gateway's internal token
 * (`INTERNAL_JWT_PUBLIC_JWKS` or `INTERNAL_JWKS_URL`); without one it refuses to start, unless
 * `INSECURE_DEVELOPMENT_IDENTITY=true` (never in production) serves every caller every role.
 */
// First: the spans of everything started below go to OTEL_EXPORTER_OTLP_ENDPOINT when it is set.
const tracing = startTracing("aopd");
const logger = createLogger("aopd");
const authenticate = internalTokenVerifierFromEnv("aopd");
// Before start-up: a replica still waiting for its database stops on SIGTERM too (with nothing to drain).
const started: { aopd?: RunningAopd } = {};
onShutdownSignal(logger, async () => {
  await started.aopd?.close();
  await tracing.shutdown();
});
try {
  started.aopd = await startAopd({
    logger,
    metricsExposure: metricsExposureFromEnv(),
    ...(authenticate ? { authenticate } : {}),
    insecureDevelopmentIdentity: insecureDevelopmentIdentityFromEnv(),
  });
} catch (error) {
  const portTaken = portInUseMessage(error, { [Number(process.env.AOPD_PORT ?? 4001)]: "AOPD_PORT", [Number(process.env.METRICS_PORT)]: "METRICS_PORT" });
  // One JSON line the log collector reads (the database did not answer in time, say), then a non-zero exit.
  if (portTaken) logger.fatal(portTaken);
  else logger.fatal({ err: error }, "aopd could not start");
  process.exit(1);
}

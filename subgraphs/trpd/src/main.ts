import { internalTokenVerifierFromEnv } from "@compliance-graph/identity";
import { createLogger, metricsExposureFromEnv, onShutdownSignal, startTracing } from "@compliance-graph/server-kit";
import { startTrpd } from "./start-trpd.js";

// Runs the trpd subgraph on its own: `node --import tsx subgraphs/trpd/src/main.ts`.
// First: the spans of everything started below go to OTEL_EXPORTER_OTLP_ENDPOINT when it is set.
const tracing = startTracing("trpd");
const logger = createLogger("trpd");
const authenticate = internalTokenVerifierFromEnv("trpd");
if (!authenticate) logger.warn("no INTERNAL_JWT_PUBLIC_JWKS or INTERNAL_JWKS_URL: serving a development identity to anyone");
const trpd = await startTrpd({ logger, metricsExposure: metricsExposureFromEnv(), ...(authenticate ? { authenticate } : {}) });
onShutdownSignal(logger, async () => {
  await trpd.close();
  await tracing.shutdown();
});

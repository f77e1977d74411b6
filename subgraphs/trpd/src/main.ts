import { internalTokenVerifierFromEnv } from "@compliance-graph/identity";
import { createLogger, metricsExposureFromEnv, onShutdownSignal } from "@compliance-graph/server-kit";
import { startTrpd } from "./start-trpd.js";

// Runs the trpd subgraph on its own: `node --import tsx subgraphs/trpd/src/main.ts`.
const logger = createLogger("trpd");
const authenticate = internalTokenVerifierFromEnv("trpd");
if (!authenticate) logger.warn("no INTERNAL_JWT_PUBLIC_JWKS or INTERNAL_JWKS_URL: serving a development identity to anyone");
const trpd = await startTrpd({ logger, metricsExposure: metricsExposureFromEnv(), ...(authenticate ? { authenticate } : {}) });
onShutdownSignal(logger, () => trpd.close());

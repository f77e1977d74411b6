import { internalTokenVerifierFromEnv } from "@compliance-graph/identity";
import { createLogger, metricsExposureFromEnv, onShutdownSignal } from "@compliance-graph/server-kit";
import { startAopd } from "./start-aopd.js";

/**
 * The aopd deployable: `node --import tsx subgraphs/aopd/src/main.ts`, configured by the
 * environment. Callers prove who they are with the gateway's internal token
 * (`INTERNAL_JWT_PUBLIC_JWKS` or `INTERNAL_JWKS_URL`); production refuses to start without one.
 */
const logger = createLogger("aopd");
const authenticate = internalTokenVerifierFromEnv("aopd");
if (!authenticate) logger.warn("no INTERNAL_JWT_PUBLIC_JWKS or INTERNAL_JWKS_URL: serving a development identity to anyone");
const aopd = await startAopd({ logger, metricsExposure: metricsExposureFromEnv(), ...(authenticate ? { authenticate } : {}) });
onShutdownSignal(logger, () => aopd.close());

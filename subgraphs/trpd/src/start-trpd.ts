import type { IncomingHttpHeaders } from "node:http";
import { allRoles, type Identity } from "@compliance-graph/identity";
import { createLogger, startSubgraphServer, type Logger, type MetricsExposure } from "@compliance-graph/server-kit";
import { buildTrpdSchema } from "./trpd-schema.js";
import type { TrpdContext } from "./trpd-context.js";
import { trpdConfigFromEnv, type TrpdConfig } from "./trpd-config.js";

export interface StartTrpdOptions {
  /** Overrides of the configuration read from the environment. */
  config?: Partial<TrpdConfig>;
  /** Verifies the gateway's internal token (`createInternalTokenVerifier`); required in production. */
  authenticate?: (headers: IncomingHttpHeaders) => Promise<Identity>;
  logger?: Logger;
  /** Where `/metrics` is served. @default on trpd's port */
  metricsExposure?: MetricsExposure;
}

export interface RunningTrpd {
  url: string;
  /** Where Prometheus scrapes trpd. */
  metricsUrl: string;
  close(): Promise<void>;
}

/** Starts the travel-rule stub subgraph. It keeps no state, so `checkReady` has nothing to wait for. */
export async function startTrpd(options: StartTrpdOptions = {}): Promise<RunningTrpd> {
  const config = { ...trpdConfigFromEnv(), ...options.config };
  const server = await startSubgraphServer<TrpdContext, Identity>({
    name: "trpd",
    schema: buildTrpdSchema(),
    port: config.port,
    host: config.host,
    production: config.production,
    authenticate: options.authenticate,
    // Only without a verifier, which production refuses: a standalone development run.
    developmentIdentity: { subject: "development", client: "development", roles: [...allRoles] },
    createContext: ({ identity, requestId, logger }) => ({ identity, requestId, logger }),
    checkReady: async () => {},
    logger: options.logger ?? createLogger("trpd"),
    ...(options.metricsExposure ? { metricsExposure: options.metricsExposure } : {}),
  });
  return { url: server.url, metricsUrl: server.metricsUrl, close: () => server.close() };
}

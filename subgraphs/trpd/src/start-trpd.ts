import { createIdentityDoor, RequiredRoles, type InternalTokenVerifier } from "@compliance-graph/identity";
import { createLogger, type Logger, type MetricsExposure } from "@compliance-graph/process-shell";
import { startSubgraphServer } from "@compliance-graph/graphql-execution";
import { buildTrpdSchema } from "./trpd-schema.js";
import type { TrpdContext } from "./trpd-context.js";
import { trpdConfigFromEnv, type TrpdConfig } from "./trpd-config.js";

export interface StartTrpdOptions {
  /** Overrides of the configuration read from the environment. */
  config?: Partial<TrpdConfig>;
  /** Verifies the gateway's internal token (`createInternalTokenVerifier`); required unless `insecureDevelopmentIdentity`. */
  authenticate?: InternalTokenVerifier;
  /**
   * `INSECURE_DEVELOPMENT_IDENTITY`: without `authenticate`, every caller is a developer with every
   * role (see `createIdentityDoor`); refused in production and beside `authenticate`. @default false
   */
  insecureDevelopmentIdentity?: boolean;
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
  const logger = options.logger ?? createLogger("trpd");
  const schema = buildTrpdSchema();
  const identity = createIdentityDoor({
    subgraph: "trpd",
    verifier: options.authenticate,
    insecureDevelopmentIdentity: options.insecureDevelopmentIdentity,
    developmentRoles: RequiredRoles.fromSchema(schema).declaredRoles(),
    production: config.production,
    logger,
  });
  const server = await startSubgraphServer<TrpdContext>({
    name: "trpd",
    schema,
    port: config.port,
    host: config.host,
    production: config.production,
    identity,
    createContext: ({ identity, requestId, logger }) => ({ identity, requestId, logger }),
    checkReady: async () => {},
    logger,
    ...(options.metricsExposure ? { metricsExposure: options.metricsExposure } : {}),
  });
  return { url: server.url, metricsUrl: server.metricsUrl, close: () => server.close() };
}

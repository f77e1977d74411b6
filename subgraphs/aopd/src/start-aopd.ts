import type { IncomingMessage } from "node:http";
import { sql } from "kysely";
import { allRoles, type Identity } from "@compliance-graph/identity";
import { createLogger, startSubgraphServer, type Logger } from "@compliance-graph/server-kit";
import { aopdConfigFromEnv, type AopdConfig } from "./aopd-config.js";
import { migrateToLatest } from "./database/migrate-to-latest.js";
import { openDatabase } from "./database/open-database.js";
import type { AopdContext, AopdServices } from "./graphql/aopd-context.js";
import { aoppCallbackRoute } from "./ingestion/aopp-callback-route.js";
import { startExpiryJob } from "./ingestion/start-expiry-job.js";
import { loadPortalResources } from "./portal/load-portal-resources.js";
import { defaultProofQueryLimits } from "./proofs/proof-query.js";
import { buildAopdSchema } from "./schema/aopd-schema.js";
import { seedProofs } from "./seed/seed-proofs.js";
import { startAopdSubscriptionServer } from "./subscriptions/start-aopd-subscription-server.js";
import { ExportSlots } from "./export/export-slots.js";

export interface StartAopdOptions {
  /** Overrides of the configuration read from the environment. */
  config?: Partial<AopdConfig>;
  /** Verifies the caller's identity from the request; required in production. */
  authenticate?: (request: IncomingMessage) => Promise<Identity>;
  /** Seeds this many demo proofs when the database is empty (for `npm start`). @default 0 */
  seedDemoProofs?: number;
  logger?: Logger;
}

export interface RunningAopd {
  url: string;
  services: AopdServices;
  close(): Promise<void>;
}

/**
 * Starts the address ownership proof subgraph: opens the database, applies the migrations,
 * loads the portal resources and serves GraphQL. Everything a replica needs comes from the
 * configuration; it keeps no state of its own.
 */
export async function startAopd(options: StartAopdOptions = {}): Promise<RunningAopd> {
  const config = { ...aopdConfigFromEnv(), ...options.config };
  const logger = options.logger ?? createLogger("aopd");
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const applied = await migrateToLatest(database.db);
    if (applied.length > 0) logger.info({ applied }, "migrations applied");
    if (options.seedDemoProofs) {
      const { count } = await database.db.selectFrom("aopd_proof").select((eb) => eb.fn.countAll().as("count")).executeTakeFirstOrThrow();
      if (Number(count) === 0) {
        await seedProofs(database, { count: options.seedDemoProofs, seed: 1 });
        logger.info({ count: options.seedDemoProofs }, "demo proofs seeded");
      }
    }
    const services: AopdServices = {
      db: database.db,
      config,
      portal: await loadPortalResources(config),
      limits: { ...defaultProofQueryLimits, maxResultRows: config.maxResultRows },
      exportSlots: new ExportSlots(config),
    };
    const schema = buildAopdSchema();
    const developmentIdentity: Identity = { subject: "development", client: "development", roles: [...allRoles] };
    const server = await startSubgraphServer<AopdContext, Identity>({
      name: "aopd",
      schema,
      port: config.port,
      host: config.host,
      production: config.production,
      // The gateway checked the cost already; checked again here for callers that reach aopd directly.
      cost: { maxCost: config.maxCost, ...(config.maxResultRows ? { maxListRows: config.maxResultRows } : {}) },
      authenticate: options.authenticate,
      // Development without a gateway in front: every caller is a developer with every role.
      developmentIdentity,
      createContext: ({ identity, requestId, logger: requestLogger }) => ({ ...services, identity, requestId, logger: requestLogger }),
      checkReady: async () => {
        await sql`SELECT 1`.execute(database.db);
      },
      logger,
      handleOtherRoute: aoppCallbackRoute({ db: database.db, config, logger }),
    });
    // Subscriptions on the same port, at `/graphql` over WebSocket; events through LISTEN/NOTIFY.
    const subscriptions = startAopdSubscriptionServer({ httpServer: server.httpServer, schema, services, database, authenticate: options.authenticate, developmentIdentity, logger });
    await subscriptions.ready;
    const stopExpiryJob = startExpiryJob(database.db, config.expiryIntervalSeconds, logger);
    return {
      url: server.url,
      services,
      close: async () => {
        await stopExpiryJob();
        await subscriptions.close();
        await server.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

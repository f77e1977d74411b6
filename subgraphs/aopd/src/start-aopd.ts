import { createIdentityDoor, type InternalTokenVerifier } from "@compliance-graph/identity";
import { allAopdRoles } from "./aopd-roles.js";
import { isConnectionFailure } from "@compliance-graph/errors";
import { createLogger, OutageLog, startRepeatingJob, type Logger, type MetricsExposure } from "@compliance-graph/process-shell";
import { startSubgraphServer } from "@compliance-graph/graphql-execution";
import { AopdMetrics } from "./aopd-metrics.js";
import { aopdConfigFromEnv } from "./aopd-config-from-env.js";
import type { AopdConfig } from "./aopd-config.js";
import { publishRecordRetention } from "./audit/record-retention.js";
import { migrateToLatest } from "./database/migrate-to-latest.js";
import { openDatabase } from "./database/open-database.js";
import { databaseReadiness } from "./database/database-readiness.js";
import { waitForDatabase } from "./database/wait-for-database.js";
import type { AopdContext, AopdServices } from "./graphql/aopd-context.js";
import { aoppCallbackRoute } from "./http/aopp-callback-route.js";
import { expirePendingProofs } from "./proofs/expire-pending-proofs.js";
import { ChainWatcher } from "./kinds/satoshi/chain-watcher.js";
import { loadBundledSanctionsList } from "./screening/load-bundled-sanctions-list.js";
import { ProviderScreener } from "./screening/provider-screener.js";
import { syncScreenedAssets } from "./screening/sync-screened-assets.js";
import { pruneProofEvents } from "./events/prune-proof-events.js";
import { pruneIdempotencyKeys } from "./ingestion/prune-idempotency-keys.js";
import { createXpubSearchPool } from "./kinds/signature/xpub-search-pool.js";
import { portalApiRoute } from "./http/portal-api-route.js";
import { PortalEventStreams } from "./http/portal-event-streams.js";
import { PublicRouteLimits } from "./http/public-route-limits.js";
import { portalDistDir } from "@compliance-graph/portal";
import { loadPortalResources } from "./portal/load-portal-resources.js";
import { loadPortalFiles, portalPageRoute } from "./http/portal-page-route.js";
import { defaultProofQueryLimits } from "./proofs/proof-query.js";
import { buildAopdSchema } from "./schema/aopd-schema.js";
import { seedProofs } from "./seed/seed-proofs.js";
import { startProofEventPump, type ProofEventPump } from "./events/start-proof-event-pump.js";
import { chainSpacingMs } from "./audit/chain-audit-entries.js";
import { loadAuditKeyring, useAuditKeyring } from "./audit/audit-keyring.js";
import { loadCheckpointSigner } from "./audit/checkpoint-signer.js";
import { parseWitnessKeys } from "./audit/witness-keys.js";
import { sequenceAuditLog } from "./audit/sequence-audit-log.js";
import { auditLogRoutes } from "./http/audit-log-routes.js";
import { Sequencer } from "./database/sequencer.js";
import { startAopdSubscriptionServer } from "./subscriptions/start-aopd-subscription-server.js";
import { ExportSlots } from "./export/export-slots.js";
import { MediaUploadSlots } from "./kinds/media/media-upload-slots.js";
import { officerMediaRoute } from "./http/officer-media-route.js";
import { DownloadsInFlight } from "./export/downloads-in-flight.js";
import { proofDownloadRoute } from "./http/proof-download-route.js";
import { loadReceiptSigningKeys } from "./receipts/receipt-signing-keys.js";
import { ReceiptSigner } from "./receipts/receipt-signer.js";
import { receiptJwksRoute } from "./http/receipt-jwks-route.js";
import { receiptStatusRoute } from "./http/receipt-status-route.js";

export interface StartAopdOptions {
  /** Overrides of the configuration read from the environment. */
  config?: Partial<AopdConfig>;
  /** Verifies the gateway's internal token (`internalTokenVerifierFromEnv`); required unless `insecureDevelopmentIdentity`. */
  authenticate?: InternalTokenVerifier;
  /**
   * `INSECURE_DEVELOPMENT_IDENTITY`: without `authenticate`, every caller is a developer with every
   * role (see `createIdentityDoor`); refused in production and beside `authenticate`. @default false
   */
  insecureDevelopmentIdentity?: boolean;
  /** Seeds this many demo proofs when the database is empty (for `npm start`). @default 0 */
  seedDemoProofs?: number;
  /**
   * Imports the newest bundled OFAC snapshot when no sanctions list version was ever imported, so
   * that a fresh database screens out of the box (docs/screening.md). @default true
   */
  loadBundledSanctionsList?: boolean;
  logger?: Logger;
  /** Where `/metrics` is served. @default on aopd's port */
  metricsExposure?: MetricsExposure;
  /** Queries compiled by graphql-jit (see graphql-execution's `compiledExecutionGateway`). @default GRAPHQL_COMPILED_EXECUTION !== "false" */
  compiledExecution?: boolean;
}

export interface RunningAopd {
  url: string;
  /** Where Prometheus scrapes this replica. */
  metricsUrl: string;
  services: AopdServices;
  /** This replica's chain watcher (its `stats()` feed the metrics). */
  chainWatcher: ChainWatcher;
  /** This replica's bounds on uploads in progress (how many are in use). */
  uploadSlots: MediaUploadSlots;
  /** This replica's commercial screening provider's worker, when one is configured. */
  providerScreener: ProviderScreener | undefined;
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
  // Decided before anything opens: a subgraph that cannot tell who calls does not start.
  const identity = createIdentityDoor({
    subgraph: "aopd",
    verifier: options.authenticate,
    insecureDevelopmentIdentity: options.insecureDevelopmentIdentity,
    developmentRoles: allAopdRoles,
    production: config.production,
    logger,
  });
  // Also before anything opens: production refuses to sign receipts with a key made up at start.
  const receiptKeys = await loadReceiptSigningKeys(config.receipts, config.production);
  if (receiptKeys.generated)
    logger.warn(
      "AOPD_RECEIPT_SIGNING_KEY is not set: receipts are signed with a key generated at start, which no other replica or later start knows (development only)",
    );
  // And the audit key: production refuses entries authenticated with the published development key.
  const auditKeys = loadAuditKeyring(config.auditLog, config.production);
  useAuditKeyring(auditKeys);
  if (auditKeys.development)
    logger.warn(
      "AOPD_AUDIT_KEY is not set: audit entries are authenticated with the development key, derived from a published text, which anyone can use (development only)",
    );
  const checkpoints = loadCheckpointSigner(config.auditLog, config.production);
  if (checkpoints.development)
    logger.warn(
      "AOPD_CHECKPOINT_KEY is not set: audit checkpoints are signed with the development key, derived from a published text, which anyone can use (development only)",
    );
  const witnesses = parseWitnessKeys(config.auditLog.witnessKeys);
  const outages = new OutageLog(logger);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onConnectionLost: (error) => logger.warn({ err: error }, "an idle database connection was lost; the next query opens a new one"),
    onConnected: () => outages.up("database"),
    timeouts: config.database,
  });
  let pump: ProofEventPump | undefined;
  let stopAuditSequencer = async () => {};
  try {
    if (database.driver === "postgres") await waitForDatabase(database.db, { limitMs: config.database.startupTimeoutMs, logger });
    // Migrations may build indexes on large tables: the long statement timeout, not the queries' one.
    const applied = await migrateToLatest(database.longRunning);
    if (applied.length > 0) logger.info({ applied }, "migrations applied");
    await publishRecordRetention(database.db, config.recordRetentionYears);
    await syncScreenedAssets(database.db, config.assets);
    if (options.loadBundledSanctionsList ?? true) {
      // The first screening of an existing table writes every row: the long statement timeout, as for migrations.
      const loaded = await loadBundledSanctionsList(database.longRunning, config.assets);
      if (loaded && !loaded.alreadyImported) {
        logger.info(
          { list: loaded.list, publishedOn: loaded.publishedOn, addresses: loaded.addresses, screeningChanges: loaded.changes.length },
          "bundled sanctions list imported",
        );
      }
    }
    if (options.seedDemoProofs) {
      const { count } = await database.db
        .selectFrom("aopd_proof")
        .select((eb) => eb.fn.countAll().as("count"))
        .executeTakeFirstOrThrow();
      if (Number(count) === 0) {
        await seedProofs(database, { count: options.seedDemoProofs, seed: 1 });
        logger.info({ count: options.seedDemoProofs }, "demo proofs seeded");
      }
    }
    const xpubSearch = createXpubSearchPool({ workers: config.xpubWorkers, maxQueued: config.xpubMaxQueued });
    // The pump is started below; the metrics read its hub's subscriber count only when scraped.
    const metrics = new AopdMetrics(database, () => pump?.hub.subscriberCount ?? 0);
    const services: AopdServices = {
      db: database.db,
      pool: database.pool,
      config,
      portal: await loadPortalResources(config),
      limits: { ...defaultProofQueryLimits, maxResultRows: config.maxResultRows },
      findXpubDerivation: xpubSearch.search,
      exportSlots: new ExportSlots(config),
      metrics,
      receiptSigner: new ReceiptSigner(receiptKeys, config.receipts),
    };
    // One event pump per replica: its hub feeds GraphQL subscriptions and the portal's event streams alike.
    // The audit trail's entries are chained right after they commit (audit/chain-audit-entries.ts).
    const auditSequencer = new Sequencer({
      what: "chaining audit entries",
      sequence: () =>
        sequenceAuditLog(database.db, {
          signer: checkpoints.signer,
          checkpointIntervalMs: config.auditLog.checkpointIntervalMs,
          onSetAside: (setAside) => {
            metrics.auditEntriesSetAside.inc(setAside.length);
            for (const entry of setAside)
              logger.error(
                { insertion: entry.insertion, action: entry.action, actorSubject: entry.actorSubject, reason: entry.reason },
                "an audit entry was set aside, not chained: its authentication failed",
              );
          },
          onFork: (error) => {
            metrics.auditCheckpointsRefused.inc();
            logger.error({ reason: error.message }, "no audit checkpoint signed: the stored tree does not extend the last signed checkpoint");
          },
        }),
      logger,
      spacingMs: chainSpacingMs,
    });
    stopAuditSequencer = () => auditSequencer.stop();
    const eventPump = startProofEventPump({ database, limits: services.limits, metrics, logger, onAuditWrite: () => auditSequencer.request() });
    pump = eventPump; // stopped below if a later step of the start fails
    const streams = new PortalEventStreams(eventPump.hub, config);
    // The AOPP callback and the portal API share their rate limits: a client cannot escape one by switching routes.
    // One bound on uploads for both doors: each holds a database connection while its body arrives.
    const uploadSlots = new MediaUploadSlots(config);
    const publicRoutes = { ...services, limits: new PublicRouteLimits(config), streams, uploadSlots, logger };
    const chainWatcher = new ChainWatcher(database.db, config.assets, config.chain, logger);
    const providerScreener = config.screening.provider ? new ProviderScreener(database.db, config.screening.provider, logger) : undefined;
    metrics.watchChain(() => chainWatcher.stats());
    const schema = buildAopdSchema();
    const databaseReady = databaseReadiness(database.db, config.database.readyTimeoutMs);

    const downloads = new DownloadsInFlight();
    const server = await startSubgraphServer<AopdContext>({
      name: "aopd",
      schema,
      metrics,
      ...(options.metricsExposure ? { metricsExposure: options.metricsExposure } : {}),
      ...(options.compiledExecution !== undefined ? { compiledExecution: options.compiledExecution } : {}),
      port: config.port,
      host: config.host,
      production: config.production,
      // The gateway checked the cost already; checked again here for callers that reach aopd directly.
      cost: { maxCost: config.maxCost, ...(config.maxResultRows ? { maxListRows: config.maxResultRows } : {}) },
      identity,
      createContext: ({ identity, requestId, logger: requestLogger }) => ({ ...services, identity, requestId, logger: requestLogger }),
      checkReady: async () => {
        try {
          await databaseReady();
        } catch (error) {
          if (isConnectionFailure(error)) outages.down("database", error);
          throw error;
        }
        // A failing chain connection or screening provider only delays: degraded, still ready.
        return { degraded: [...chainWatcher.degraded(), ...(providerScreener?.degraded() ?? [])] };
      },
      dependency: { part: "database", outages },
      logger,
      // aopd's routes beside /graphql: each says whether the identity door guards it (the shell applies it).
      routes: [
        receiptJwksRoute(services.receiptSigner),
        receiptStatusRoute(services.db, publicRoutes.limits),
        ...auditLogRoutes({ db: services.db, signer: checkpoints.signer, witnesses, limits: publicRoutes.limits }),
        proofDownloadRoute({ services, schema, logger, downloads }),
        aoppCallbackRoute(publicRoutes),
        portalApiRoute(publicRoutes),
        officerMediaRoute({ db: services.db, config, uploadSlots, logger }),
        ...portalPageRoute(loadPortalFiles(portalDistDir, services.portal, config), config, logger),
      ],
    });
    // Subscriptions on the same port, at `/graphql` over WebSocket, fed by the pump's hub.
    const subscriptions = startAopdSubscriptionServer({
      httpServer: server.httpServer,
      schema,
      services,
      identity,
      logger,
      hub: eventPump.hub,
      operationChecks: server.operationChecks,
    });
    await eventPump.ready;
    const stopMetricsReads = metrics.readDatabaseGauges(logger);
    const jobBatch = 1_000;
    const stopExpiryJob = startRepeatingJob(
      "expiring pending proofs",
      config.expiryIntervalSeconds,
      async () => {
        let expired;
        try {
          expired = await expirePendingProofs(database.db, jobBatch);
        } catch (error) {
          metrics.expiryRuns.inc({ outcome: "error" });
          throw error;
        }
        metrics.expiryRuns.inc({ outcome: "ok" });
        if (expired.length > 0) {
          metrics.proofsExpired.inc(expired.length);
          metrics.expiryLagSeconds.set(Math.max(...expired.map((row) => row.lag_seconds)));
          logger.info({ expired: expired.length }, "pending proofs expired");
        }
        return expired.length === jobBatch;
      },
      logger,
    );
    const stopPruning = startRepeatingJob(
      "pruning the proof event log",
      config.eventPruneIntervalSeconds,
      async () => {
        const pruned = await pruneProofEvents(database.db, config.eventRetentionDays * 86_400);
        if (pruned > 0) logger.info({ pruned }, "old proof events pruned");
        const prunedKeys = await pruneIdempotencyKeys(database.db);
        if (prunedKeys > 0) logger.info({ pruned: prunedKeys }, "expired idempotency keys pruned");
        return false;
      },
      logger,
    );
    const stopChainChecks =
      config.chain.connections.length === 0
        ? async () => {}
        : startRepeatingJob("checking Satoshi proofs on chain", config.chain.intervalSeconds, () => chainWatcher.pass(), logger);
    const provider = config.screening.provider;
    const stopProviderScreening =
      providerScreener && provider && provider.intervalSeconds > 0
        ? startRepeatingJob("screening addresses with the provider", provider.intervalSeconds, () => providerScreener.pass(), logger)
        : async () => {};
    return {
      url: server.url,
      metricsUrl: server.metricsUrl,
      services,
      chainWatcher,
      uploadSlots,
      providerScreener,
      close: async () => {
        await stopProviderScreening();
        await stopChainChecks();
        await stopExpiryJob();
        await stopPruning();
        await stopMetricsReads();
        streams.endAll();
        await eventPump.close();
        await stopAuditSequencer();
        await subscriptions.close();
        downloads.stop();
        await server.close();
        // The drain has cut what was left; each download writes its trail entry before the database closes.
        await downloads.settled();
        await xpubSearch.close();
        await database.close();
      },
    };
  } catch (error) {
    await pump?.close();
    await stopAuditSequencer();
    await database.close();
    throw error;
  }
}

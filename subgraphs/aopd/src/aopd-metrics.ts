import { sql, type Kysely } from "kysely";
import type pg from "pg";
import { Counter, Gauge } from "prom-client";
import { ServiceMetrics, startRepeatingJob, type Logger } from "@compliance-graph/process-shell";
import type { ChainWatcherStats } from "./chain/chain-backoff.js";
import type { AopdDatabase } from "./database/database-schema.js";

/**
 * aopd's metrics beside those of every deployable. Proof events are counted where they are
 * numbered: each is numbered once by one replica, so the sum over replicas is exact whichever
 * replica or writer made the change. Gauges of the database are read in the background (see
 * `readDatabaseGauges`) and a scrape serves the last value read: a scrape never waits on the
 * database, so monitoring still sees a replica whose database stopped answering. Label values
 * come from fixed sets (kinds, statuses, families, schemes, failure codes).
 */
export class AopdMetrics extends ServiceMetrics {
  readonly proofEvents: Counter<"change" | "kind" | "status">;
  readonly signatureVerifications: Counter<"family" | "scheme" | "result">;
  readonly expiryRuns: Counter<"outcome">;
  readonly proofsExpired: Counter;
  readonly expiryLagSeconds: Gauge;
  readonly exportRows: Counter;
  readonly exportBytes: Counter;
  readonly auditEntriesSetAside: Counter;
  readonly auditCheckpointsRefused: Counter;
  readonly #database: { db: Kysely<AopdDatabase> };
  #notificationQueueUsage = 0;

  constructor(database: { db: Kysely<AopdDatabase>; pool?: pg.Pool | undefined }, subscribers: () => number) {
    super("aopd");
    this.#database = database;
    const registers = [this.registry];
    this.proofEvents = new Counter({
      name: "aopd_proof_events_total",
      help: "Proof creations and status changes numbered into the event log by this replica, by change, proof kind and new status.",
      labelNames: ["change", "kind", "status"],
      registers,
    });
    this.signatureVerifications = new Counter({
      name: "aopd_signature_verifications_total",
      help: "Signature checks of submitted proofs, by address family, scheme (none when refused before one applied) and result (verified or the refusal code).",
      labelNames: ["family", "scheme", "result"],
      registers,
    });
    this.expiryRuns = new Counter({
      name: "aopd_expiry_runs_total",
      help: "Passes of the expiry job, by outcome (ok, error).",
      labelNames: ["outcome"],
      registers,
    });
    this.proofsExpired = new Counter({ name: "aopd_proofs_expired_total", help: "Pending proofs this replica marked EXPIRED.", registers });
    this.expiryLagSeconds = new Gauge({
      name: "aopd_expiry_lag_seconds",
      help: "In the last expiry pass that expired proofs: how long past its due time the latest one was.",
      registers,
    });
    this.exportRows = new Counter({ name: "aopd_export_rows_total", help: "Proof rows written into XLSX exports.", registers });
    this.exportBytes = new Counter({ name: "aopd_export_bytes_total", help: "Bytes of XLSX exports produced (before base64).", registers });
    this.auditEntriesSetAside = new Counter({
      name: "aopd_audit_entries_set_aside_total",
      help: "Audit entries this replica's sequencer refused to chain because their authentication failed (written by someone other than aopd); any is an alarm.",
      registers,
    });
    this.auditCheckpointsRefused = new Counter({
      name: "aopd_audit_checkpoints_refused_total",
      help: "Audit checkpoints this replica refused to sign because the stored tree does not extend the last signed checkpoint (the trail was rewritten); any is an alarm.",
      registers,
    });
    const notificationQueueUsage = () => this.#notificationQueueUsage;
    new Gauge({
      name: "aopd_notification_queue_usage_ratio",
      help: "pg_notification_queue_usage(): the share of PostgreSQL's NOTIFY queue in use (a listener that stopped reading fills it), as last read (every 15 s).",
      registers,
      collect() {
        this.set(notificationQueueUsage());
      },
    });
    new Gauge({
      name: "aopd_proof_event_subscribers",
      help: "Subscribers of this replica's proof events (GraphQL subscriptions and portal streams).",
      registers,
      collect() {
        this.set(subscribers());
      },
    });
    const pool = database.pool;
    if (pool) {
      new Gauge({
        name: "aopd_db_pool_connections",
        help: "Connections of this replica's database pool, by state (in_use, idle).",
        labelNames: ["state"],
        registers,
        collect() {
          this.set({ state: "idle" }, pool.idleCount);
          this.set({ state: "in_use" }, pool.totalCount - pool.idleCount);
        },
      });
      new Gauge({
        name: "aopd_db_pool_waiting",
        help: "Queries waiting for a connection of this replica's pool.",
        registers,
        collect() {
          this.set(pool.waitingCount);
        },
      });
    }
  }

  /**
   * Reads the database's gauges now and then every `intervalSeconds` in the background, each read
   * bounded by the pool's statement timeout; a failed read keeps the last value. Returns the stop
   * function. @default intervalSeconds 15 // a usual scrape interval
   */
  readDatabaseGauges(logger: Logger, intervalSeconds = 15): () => Promise<void> {
    return startRepeatingJob(
      "reading the database's gauges",
      intervalSeconds,
      async () => {
        const { rows } = await sql<{ usage: number }>`SELECT pg_notification_queue_usage() AS usage`.execute(this.#database.db);
        this.#notificationQueueUsage = Number(rows[0]?.usage ?? 0);
        return false;
      },
      logger,
    );
  }

  /** The chain watcher's connections and outcomes, read from its counters when scraped. */
  watchChain(stats: () => ChainWatcherStats[]): void {
    const registers = [this.registry];
    new Gauge({
      name: "aopd_chain_connection_up",
      help: "Whether this replica's connection to a chain answers (0 while it backs off after failures), by network.",
      labelNames: ["network"],
      registers,
      collect() {
        for (const network of stats()) this.set({ network: network.network }, network.state === "ok" ? 1 : 0);
      },
    });
    const reported = new Map<string, number>();
    /** Adds to `counter` what a stats counter gained since the last scrape. */
    const addGrowth = (counter: Counter<string>, key: string, labels: Record<string, string>, now: number) => {
      const delta = now - (reported.get(key) ?? 0);
      if (delta > 0) counter.inc(labels, delta);
      reported.set(key, now);
    };
    new Counter({
      name: "aopd_chain_checks_total",
      help: "Satoshi proofs checked on chain by this replica, by network and outcome (verified, failed, waiting: nothing decided yet).",
      labelNames: ["network", "outcome"],
      registers,
      collect() {
        for (const network of stats()) {
          for (const outcome of ["verified", "failed", "waiting"] as const)
            addGrowth(this, `checks/${network.network}/${outcome}`, { network: network.network, outcome }, network[outcome]);
        }
      },
    });
    new Counter({
      name: "aopd_chain_deposit_watches_total",
      help: "Looks at the deposit address of a PENDING Satoshi proof by this replica (AOPD_CHAIN_WATCH_PENDING), by network.",
      labelNames: ["network"],
      registers,
      collect() {
        for (const network of stats()) addGrowth(this, `watches/${network.network}`, { network: network.network }, network.depositWatches);
      },
    });
    new Counter({
      name: "aopd_chain_deposit_matches_total",
      help: "PENDING Satoshi proofs whose test transaction this replica found on the deposit address, by network.",
      labelNames: ["network"],
      registers,
      collect() {
        for (const network of stats()) addGrowth(this, `matches/${network.network}`, { network: network.network }, network.matched);
      },
    });
  }
}

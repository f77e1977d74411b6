import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { boundedPool } from "./bounded-pool.js";
import type { AopdDatabase } from "./database-schema.js";
import type { DatabaseTimeouts } from "./database-timeouts.js";
import { PGliteDialect } from "@compliance-graph/pglite-dialect";
import { tracedDialect } from "./traced-dialect.js";
import { proofDatabaseTypes } from "./timestamptz-parser.js";

export interface DatabaseOptions {
  /** A PostgreSQL connection string; when absent, embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite's data folder; `memory://` keeps it in memory. @default ".data/aopd" */
  dataDir?: string;
  /** Largest number of pooled server connections. @default 10 */
  maxConnections?: number;
  /** Told when an idle pooled connection is lost (the server restarted, a failover, a terminated backend). */
  onConnectionLost?: (error: Error) => void;
  /** Told when the pool opens a connection: the server answers (again). */
  onConnected?: () => void;
  /**
   * Bounds of every wait on a PostgreSQL server (see `DatabaseTimeouts`); the deployable always
   * sets them. Without them (the command-line tools) nothing is bounded. Embedded PGlite runs in
   * this process and has nothing to time out.
   */
  timeouts?: DatabaseTimeouts;
}

export interface Database {
  /** Queries and writes, each statement bounded by the statement timeout. */
  db: Kysely<AopdDatabase>;
  /** Work that is long by nature (migrations), bounded by the long statement timeout; `db` itself on PGlite or without timeouts. */
  longRunning: Kysely<AopdDatabase>;
  driver: "postgres" | "pglite";
  /** The PGlite instance when embedded (for LISTEN/NOTIFY and COPY). */
  pglite?: PGlite;
  /** The pool when on a server (for LISTEN/NOTIFY and COPY, which need a dedicated client). */
  pool?: pg.Pool;
  /** The long statement timeout, for long work on a dedicated client of `pool` (COPY); absent when nothing is bounded. */
  longStatementTimeoutMs?: number;
  close(): Promise<void>;
}

/**
 * Opens the proof database: the `pg` driver against a PostgreSQL server when a URL is given (the
 * production path), else embedded PGlite on a local folder so that a trial needs no server. Both
 * speak the same SQL through the same Kysely queries.
 */
export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  if (options.databaseUrl) {
    const { timeouts } = options;
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.maxConnections ?? 10,
      types: proofDatabaseTypes,
      ...(timeouts
        ? {
            connectionTimeoutMillis: timeouts.connectTimeoutMs,
            // Sent when each connection opens, so that they hold for every statement without a round trip.
            statement_timeout: timeouts.statementTimeoutMs,
            idle_in_transaction_session_timeout: timeouts.idleInTransactionTimeoutMs,
            keepAlive: true,
            keepAliveInitialDelayMillis: timeouts.keepAliveMs,
          }
        : {}),
    });
    // Connections this process closed itself (a statement past its timeout): their 'error' is expected.
    const closing = new WeakSet<object>();
    // An idle connection the server drops is reported as an 'error' event of the pool, which would
    // end the process if nobody listened. The pool has already discarded that connection and opens
    // a new one for the next query, so losing one is survivable: note it and carry on.
    pool.on("error", (error, client) => {
      if (!closing.has(client)) options.onConnectionLost?.(error);
    });
    pool.on("connect", (client) => {
      // A connection lost while checked out but between two statements (inside a transaction)
      // is reported as an 'error' of that client, which the pool does not listen to then: without
      // this listener it would end the process. The transaction's next statement fails instead,
      // and the pool drops the broken client when it comes back.
      client.on("error", (error) => {
        if (!closing.has(client)) options.onConnectionLost?.(error);
      });
      options.onConnected?.();
    });
    if (!timeouts) {
      const db = new Kysely<AopdDatabase>({ dialect: tracedDialect(new PostgresDialect({ pool })) });
      return { db, longRunning: db, driver: "postgres", pool, close: () => db.destroy() };
    }
    const bounded = (statementTimeoutMs: number, endsPool: boolean) =>
      new Kysely<AopdDatabase>({
        dialect: tracedDialect(
          new PostgresDialect({
            pool: boundedPool(pool, {
              statementTimeoutMs,
              poolStatementTimeoutMs: timeouts.statementTimeoutMs,
              clientGraceMs: timeouts.clientGraceMs,
              onClosing: (client) => closing.add(client),
              endsPool,
            }),
          }),
        ),
      });
    const db = bounded(timeouts.statementTimeoutMs, true);
    const longRunning = bounded(timeouts.longStatementTimeoutMs, false);
    return {
      db,
      longRunning,
      driver: "postgres",
      pool,
      longStatementTimeoutMs: timeouts.longStatementTimeoutMs,
      close: async () => {
        await longRunning.destroy();
        await db.destroy();
      },
    };
  }
  const dataDir = options.dataDir ?? ".data/aopd";
  // PGlite creates its own folder but not the ones above it, which a fresh checkout lacks.
  if (!dataDir.includes("://")) mkdirSync(dirname(dataDir), { recursive: true });
  const pglite = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  const db = new Kysely<AopdDatabase>({ dialect: tracedDialect(new PGliteDialect(pglite)) });
  return {
    db,
    longRunning: db,
    driver: "pglite",
    pglite,
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}

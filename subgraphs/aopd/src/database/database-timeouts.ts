/**
 * The bounds of every wait on the PostgreSQL server. Without them a server that stops answering
 * (a frozen VM, a failover that black-holes the old primary, a network partition) holds each
 * request until the gateway gives up, and the pool's connections with it.
 */
export interface DatabaseTimeouts {
  /**
   * `AOPD_DB_CONNECT_TIMEOUT_MS`: longest wait for a connection, whether a new one is opened or a
   * busy pool has none free. @default 5_000 // 5 seconds
   */
  connectTimeoutMs: number;
  /**
   * `AOPD_DB_STATEMENT_TIMEOUT_MS`: the server's `statement_timeout` for queries and writes; the
   * client gives up `clientGraceMs` later and closes the connection (a server that answers
   * cancels the statement itself; a frozen one never does). @default 5_000 // 5 seconds
   */
  statementTimeoutMs: number;
  /**
   * `AOPD_DB_LONG_STATEMENT_TIMEOUT_MS`: the same bound for work that is long by nature: the
   * COPY of an export or download, migrations. @default 1_800_000 // 30 minutes
   */
  longStatementTimeoutMs: number;
  /**
   * `AOPD_DB_CLIENT_GRACE_MS`: how long after the statement timeout the client stops waiting for
   * the server's own cancellation and closes the connection. @default 500 // milliseconds
   */
  clientGraceMs: number;
  /**
   * `AOPD_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS`: the server's `idle_in_transaction_session_timeout`:
   * a transaction that waits this long for its next statement is ended by the server, so that a
   * stuck replica cannot hold locks forever. It must exceed `AOPD_UPLOAD_IDLE_SECONDS` (an upload
   * keeps its transaction open between chunks). @default 60_000 // 60 seconds
   */
  idleInTransactionTimeoutMs: number;
  /**
   * `AOPD_DB_KEEPALIVE_MS`: idle time before TCP keepalive probes start on each connection, so that
   * a connection to a host that vanished is noticed by the kernel. @default 10_000 // 10 seconds
   */
  keepAliveMs: number;
  /**
   * `AOPD_DB_STARTUP_TIMEOUT_MS`: how long aopd keeps trying to reach the database at start-up
   * (one log line per attempt) before it exits with a non-zero code. @default 60_000 // 60 seconds
   */
  startupTimeoutMs: number;
  /**
   * `AOPD_READY_TIMEOUT_MS`: longest wait of `/health/ready` for the database; past it the answer
   * is 503. Keep the probe's own timeout above it. @default 2_000 // 2 seconds
   */
  readyTimeoutMs: number;
}

export const defaultDatabaseTimeouts: DatabaseTimeouts = {
  connectTimeoutMs: 5_000,
  statementTimeoutMs: 5_000,
  longStatementTimeoutMs: 1_800_000,
  clientGraceMs: 500,
  idleInTransactionTimeoutMs: 60_000,
  keepAliveMs: 10_000,
  startupTimeoutMs: 60_000,
  readyTimeoutMs: 2_000,
};

const variables: Record<keyof DatabaseTimeouts, string> = {
  connectTimeoutMs: "AOPD_DB_CONNECT_TIMEOUT_MS",
  statementTimeoutMs: "AOPD_DB_STATEMENT_TIMEOUT_MS",
  longStatementTimeoutMs: "AOPD_DB_LONG_STATEMENT_TIMEOUT_MS",
  clientGraceMs: "AOPD_DB_CLIENT_GRACE_MS",
  idleInTransactionTimeoutMs: "AOPD_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS",
  keepAliveMs: "AOPD_DB_KEEPALIVE_MS",
  startupTimeoutMs: "AOPD_DB_STARTUP_TIMEOUT_MS",
  readyTimeoutMs: "AOPD_READY_TIMEOUT_MS",
};

/**
 * Reads the timeouts from the environment. Each is a positive whole number of milliseconds: there
 * is no "off", since an unbounded wait is the fault these settings exist for. PostgreSQL takes a
 * timeout up to 2^31 - 1 ms (about 24.8 days).
 */
export function databaseTimeoutsFromEnv(env: NodeJS.ProcessEnv = process.env): DatabaseTimeouts {
  const timeouts = { ...defaultDatabaseTimeouts };
  for (const key of Object.keys(variables) as (keyof DatabaseTimeouts)[]) {
    const name = variables[key];
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < 1 || value > 2_147_483_647) {
      throw new Error(`${name} must be a whole number of milliseconds from 1 to 2147483647; got ${JSON.stringify(raw)}.`);
    }
    timeouts[key] = value;
  }
  if (timeouts.longStatementTimeoutMs < timeouts.statementTimeoutMs) {
    throw new Error(
      `AOPD_DB_LONG_STATEMENT_TIMEOUT_MS (${timeouts.longStatementTimeoutMs}) must be at least AOPD_DB_STATEMENT_TIMEOUT_MS (${timeouts.statementTimeoutMs}).`,
    );
  }
  return timeouts;
}

import type { Socket } from "node:net";
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely";
import type pg from "pg";
import { DatabaseTimeoutError } from "./database-timeout-error.js";

export interface BoundedPoolOptions {
  /**
   * The `statement_timeout` of the connections handed out: when it differs from the pool's own
   * (set when each connection opens), it is set when a connection is taken and reset when it is
   * given back. In milliseconds.
   */
  statementTimeoutMs: number;
  /** The pool's own `statement_timeout`, in milliseconds. */
  poolStatementTimeoutMs: number;
  /** How long after `statementTimeoutMs` the client stops waiting and closes the connection. In milliseconds. */
  clientGraceMs: number;
  /** Told before a connection is closed on purpose, so that its 'error' is not taken for a loss. */
  onClosing: (client: pg.PoolClient) => void;
  /** Whether ending this adapter ends the pool (one adapter of a pool shared by several must). */
  endsPool: boolean;
}

/** The socket under a node-postgres client: the one handle that ends a connection without the server's help. */
function socketOf(client: pg.PoolClient): Socket | undefined {
  return (client as unknown as { connection?: { stream?: Socket } }).connection?.stream;
}

/**
 * A `pg` pool as Kysely's PostgreSQL dialect takes it, whose every statement is bounded twice.
 * The server's `statement_timeout` cancels a slow statement and rolls it back; the connection
 * stays usable. A server that does not answer at all (frozen, partitioned) cancels nothing, so
 * the client waits `clientGraceMs` longer and then destroys the socket: the statement's caller
 * gets `DatabaseTimeoutError` at once, and the connection leaves the pool instead of being handed
 * to the next request with the old statement still queued on it (which `pg`'s own `query_timeout`
 * would do).
 */
export function boundedPool(pool: pg.Pool, options: BoundedPoolOptions): PostgresPool {
  const ownTimeout = options.statementTimeoutMs !== options.poolStatementTimeoutMs;
  const waitMs = options.statementTimeoutMs + options.clientGraceMs;
  const clients = new WeakMap<pg.PoolClient, BoundedClient>();

  class BoundedClient {
    broken = false;

    constructor(readonly client: pg.PoolClient) {}

    async query<R>(text: string, parameters: readonly unknown[], limitMs = waitMs): Promise<PostgresQueryResult<R>> {
      if (this.broken) throw new DatabaseTimeoutError(limitMs);
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          this.broken = true;
          options.onClosing(this.client);
          socketOf(this.client)?.destroy();
          reject(new DatabaseTimeoutError(limitMs));
        }, limitMs);
      });
      try {
        return (await Promise.race([this.client.query(text, parameters as unknown[]), expired])) as unknown as PostgresQueryResult<R>;
      } finally {
        clearTimeout(timer);
      }
    }

    release(): void {
      // A closed connection is removed from the pool rather than handed out again.
      if (this.broken) return this.client.release(new DatabaseTimeoutError(waitMs));
      // Queued on the connection before anything the next borrower sends, so it runs first.
      if (ownTimeout) this.client.query("RESET statement_timeout").catch(() => undefined);
      this.client.release();
    }
  }

  return {
    connect: async () => {
      const client = await pool.connect();
      let bounded = clients.get(client);
      if (!bounded || bounded.broken) {
        bounded = new BoundedClient(client);
        clients.set(client, bounded);
      }
      if (ownTimeout) {
        try {
          // A SET is quick: bounded like any query, not like the long work that follows it.
          await bounded.query(`SET statement_timeout = ${Math.trunc(options.statementTimeoutMs)}`, [], options.poolStatementTimeoutMs + options.clientGraceMs);
        } catch (error) {
          bounded.release();
          throw error;
        }
      }
      return bounded as unknown as PostgresPoolClient;
    },
    end: async () => {
      if (options.endsPool) await pool.end();
    },
  };
}

import pg from "pg";
import type { Logger } from "@compliance-graph/process-shell";
import type { Database } from "../database/open-database.js";
import { auditWritesChannel } from "../audit/chain-audit-entries.js";
import { proofEventsChannel, proofWritesChannel } from "./proof-event.js";

export interface ProofEventListenerOptions {
  database: Database;
  /** A proof write committed: there are events to number. */
  onWrite: () => void;
  /** Events up to this position are numbered: there are events to read. */
  onEvents: (position: string) => void;
  /** An audit entry was inserted: there are entries to chain (audit/chain-audit-entries.ts). */
  onAuditWrite: () => void;
  /**
   * The LISTEN connection was lost: notifications sent until it is back are gone (PostgreSQL does
   * not queue them for a listener that is not connected); the events themselves are in the log.
   */
  onInterrupted?: (error: Error) => void;
  /** LISTEN is in place (at start and after each reconnection): read what was announced meanwhile. */
  onListening?: () => void;
  logger: Logger;
  /** First wait before reconnecting a lost LISTEN connection; doubles up to 30 s. @default 250 // milliseconds */
  reconnectDelayMs?: number;
}

export interface ProofEventListener {
  /** Resolves once LISTEN is in place (so a subscriber accepted after it misses nothing). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Listens to the proof event log's wake-ups for this replica (see migration 0004): PostgreSQL
 * delivers a NOTIFY to every listening session once its transaction commits, so every replica hears
 * of every write and every numbering, whichever replica made it. The notifications only wake;
 * what was missed while not listening is read from the log afterwards. On a server the listener
 * holds a dedicated connection (a pooled one would be handed to queries); on PGlite it uses
 * PGlite's in-process `listen`.
 */
export function startProofEventListener(options: ProofEventListenerOptions): ProofEventListener {
  const { database, logger } = options;
  const deliver = (channel: string, payload: string | undefined) => {
    if (channel === proofWritesChannel) options.onWrite();
    else if (channel === auditWritesChannel) options.onAuditWrite();
    else if (channel === proofEventsChannel && payload && /^[0-9]+$/.test(payload)) options.onEvents(payload);
  };

  if (database.pglite) {
    const pglite = database.pglite;
    const unlistens = Promise.all([
      pglite.listen(proofWritesChannel, (payload) => deliver(proofWritesChannel, payload)),
      pglite.listen(proofEventsChannel, (payload) => deliver(proofEventsChannel, payload)),
      pglite.listen(auditWritesChannel, () => deliver(auditWritesChannel, undefined)),
    ]);
    return {
      ready: unlistens.then(() => options.onListening?.()),
      close: async () => {
        for (const unlisten of await unlistens) await unlisten();
      },
    };
  }
  const pool = database.pool;
  if (!pool) throw new Error("The database has neither a pool nor PGlite to listen on.");

  let closed = false;
  let client: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let delay = options.reconnectDelayMs ?? 250;
  let resolveReady!: () => void;
  const ready = new Promise<void>((resolve) => (resolveReady = resolve));

  const connect = async () => {
    const next = new pg.Client(pool.options);
    client = next;
    next.on("notification", (message) => deliver(message.channel, message.payload));
    next.on("error", (error) => lost(next, error));
    next.on("end", () => lost(next, new Error("The LISTEN connection ended.")));
    try {
      await next.connect();
      await next.query(`LISTEN ${proofWritesChannel}; LISTEN ${proofEventsChannel}; LISTEN ${auditWritesChannel}`);
      delay = options.reconnectDelayMs ?? 250;
      resolveReady();
      options.onListening?.();
    } catch (error) {
      lost(next, error as Error);
    }
  };
  const lost = (which: pg.Client, error: Error) => {
    if (client !== which || closed) return;
    client = undefined;
    which.removeAllListeners("notification");
    which.end().catch(() => {});
    logger.warn({ err: error, retryInMs: delay }, "proof event LISTEN connection lost");
    options.onInterrupted?.(error);
    retryTimer = setTimeout(() => void connect(), delay);
    delay = Math.min(delay * 2, 30_000);
  };
  void connect();

  return {
    ready,
    close: async () => {
      closed = true;
      clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}

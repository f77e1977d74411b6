import pg from "pg";
import type { Logger } from "@compliance-graph/server-kit";
import type { Database } from "../database/open-database.js";
import { parseProofEvent, proofEventChannel, type ProofEvent } from "../events/proof-event.js";

export interface ProofEventListenerOptions {
  database: Database;
  /** Each event, in commit order. */
  onEvent: (event: ProofEvent) => void;
  /**
   * The LISTEN connection was lost: notifications committed until it is back are gone for good
   * (PostgreSQL does not queue them for a listener that is not connected).
   */
  onInterrupted: (error: Error) => void;
  /** LISTEN is in place (at start and after each reconnection): from now on nothing is missed. */
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
 * Listens to `aopd_proof_events` for this replica. PostgreSQL delivers a NOTIFY to every listening
 * session once its transaction commits, in commit order, and never for a rolled-back one: every
 * replica hears every committed write, whichever replica made it. On a server the listener holds a
 * dedicated connection (a pooled one would be handed to queries); on PGlite it uses PGlite's
 * in-process `listen`.
 */
export function startProofEventListener(options: ProofEventListenerOptions): ProofEventListener {
  const { database, logger } = options;
  const deliver = (payload: string | undefined) => {
    const event = payload === undefined ? undefined : parseProofEvent(payload);
    if (event) options.onEvent(event);
    else logger.warn({ payload }, "ignored a malformed proof event");
  };

  if (database.pglite) {
    const unlisten = database.pglite.listen(proofEventChannel, deliver);
    return {
      ready: unlisten.then(() => options.onListening?.()),
      close: async () => {
        await (await unlisten)();
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
    next.on("notification", (message) => {
      if (message.channel === proofEventChannel) deliver(message.payload);
    });
    next.on("error", (error) => lost(next, error));
    next.on("end", () => lost(next, new Error("The LISTEN connection ended.")));
    try {
      await next.connect();
      await next.query(`LISTEN ${proofEventChannel}`);
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
    options.onInterrupted(error);
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

import type { ChainConnectionError, ChainConnectionErrorCode } from "./chain-connection-error.js";

/** One network's watcher state, for readiness now and metrics later (plain numbers, no library). */
export interface ChainWatcherStats {
  network: string;
  /** `backing_off`: the connection failed; no requests until `retryAt`. */
  state: "ok" | "backing_off";
  consecutiveFailures: number;
  lastFailure: ChainConnectionErrorCode | null;
  retryAt: Date | null;
  /** Proof checks made by this replica (each one transaction looked up). */
  checks: number;
  verified: number;
  failed: number;
  /** Checks that decided nothing yet (unknown, unconfirmed or not deep enough). */
  waiting: number;
  /** Looks at the deposit address of a PENDING proof (`AOPD_CHAIN_WATCH_PENDING`). */
  depositWatches: number;
  /** PENDING proofs whose test transaction was found that way (then checked like a reported one). */
  matched: number;
}

/**
 * Exponential backoff of one chain connection: after the nth failure in a row, no request for
 * `min(maxMs, baseMs * 2^(n-1))`, or longer when the provider's `Retry-After` says so. The first
 * success ends it. Keeps the counters of `ChainWatcherStats` beside it.
 */
export class ChainBackoff {
  readonly stats: ChainWatcherStats;

  constructor(
    network: string,
    /** @default 1_000 // 1 second */
    private readonly baseMs = 1_000,
    /** @default 300_000 // 5 minutes */
    private readonly maxMs = 300_000,
  ) {
    this.stats = {
      network,
      state: "ok",
      consecutiveFailures: 0,
      lastFailure: null,
      retryAt: null,
      checks: 0,
      verified: 0,
      failed: 0,
      waiting: 0,
      depositWatches: 0,
      matched: 0,
    };
  }

  mayRequest(now = Date.now()): boolean {
    return this.stats.retryAt === null || this.stats.retryAt.getTime() <= now;
  }

  failed(error: ChainConnectionError, now = Date.now()): void {
    const failures = ++this.stats.consecutiveFailures;
    const delay = Math.max(Math.min(this.maxMs, this.baseMs * 2 ** Math.min(failures - 1, 30)), Math.min(error.retryAfterMs ?? 0, 3_600_000));
    Object.assign(this.stats, { state: "backing_off", lastFailure: error.code, retryAt: new Date(now + delay) });
  }

  succeeded(): void {
    Object.assign(this.stats, { state: "ok", consecutiveFailures: 0, retryAt: null });
  }
}

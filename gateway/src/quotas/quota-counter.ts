/**
 * Counts what callers used of a quota in a window. `take` answers on the spot, from memory, and
 * never waits: the quota check costs a request no I/O (a shared counter talks to its database
 * in batches, off the request's path).
 */
export interface QuotaCounter {
  /**
   * Adds `amount` to `key`'s count when the count stays within `limit`, and returns true; returns
   * false and adds nothing otherwise. `key` names one window (it holds the window's start);
   * `endsAt` (milliseconds since the epoch) is when it can be forgotten.
   */
  take(key: string, endsAt: number, amount: number, limit: number): boolean;
  /** Gives back what `take` added (the other quota of the same request refused it). */
  giveBack(key: string, amount: number): void;
  close(): Promise<void>;
}

/** A replica's part of a quota when it cannot see the other replicas' counts: at least 1, so a small quota never refuses everything. */
export function replicaShare(limit: number, replicas: number): number {
  return Math.max(1, Math.floor(limit / replicas));
}

interface LocalEntry {
  used: number;
  endsAt: number;
}

/** How often windows that ended are forgotten. @default 5_000 // milliseconds */
const sweepIntervalMs = 5_000;

/**
 * A counter in this replica's memory. Behind a load balancer of `replicas` gateways, each allows
 * its share of a quota (`limit / replicas`): the total holds when the balancer spreads a caller's
 * requests evenly, and a caller that reaches one replica only gets that share.
 */
export class LocalQuotaCounter implements QuotaCounter {
  readonly #entries = new Map<string, LocalEntry>();
  readonly #replicas: number;
  readonly #sweep: NodeJS.Timeout;

  constructor(replicas = 1) {
    this.#replicas = replicas;
    this.#sweep = setInterval(() => {
      const now = Date.now();
      for (const [key, entry] of this.#entries) if (entry.endsAt <= now) this.#entries.delete(key);
    }, sweepIntervalMs);
    this.#sweep.unref();
  }

  take(key: string, endsAt: number, amount: number, limit: number): boolean {
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      entry = { used: 0, endsAt };
      this.#entries.set(key, entry);
    }
    if (entry.used + amount > replicaShare(limit, this.#replicas)) return false;
    entry.used += amount;
    return true;
  }

  giveBack(key: string, amount: number): void {
    const entry = this.#entries.get(key);
    if (entry) entry.used -= amount;
  }

  async close(): Promise<void> {
    clearInterval(this.#sweep);
  }
}

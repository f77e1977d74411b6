/**
 * What subscription clients may hold of one gateway replica, counted per subject, per client
 * address and in total. Threat: one reader's token (or one address, with or without tokens) that
 * opens sockets and subscriptions until the replica runs out of memory and every other caller
 * slows: the audit's 200 sockets x 50 `aopdProofs` of one `proofs:read` token were all accepted,
 * and 23 writes fanned out 230,000 messages (gateway RSS 173 -> 468 MB, other callers 30 times
 * slower). Per-socket limits alone cannot stop that; these caps can, and the per-replica ones keep
 * the worst case a fixed amount of memory (docs/subscriptions.md states it).
 */
import type { SubscriptionLimits } from "./subscription-limits.js";

/** Why something was not admitted: the limit's name (as in `LIMIT_EXCEEDED`'s `limit`) and its value. */
export interface QuotaRefusal {
  limit: keyof SubscriptionLimits;
  allowed: number;
  message: string;
}

/** A place taken; `release` gives it back (once, however often it is called). */
export interface QuotaTicket {
  release(): void;
}

export type QuotaLimits = Pick<
  SubscriptionLimits,
  "maxConnections" | "maxSubscriptions" | "maxConnectionsPerSubject" | "maxSubscriptionsPerSubject" | "maxConnectionsPerAddress" | "maxSubscriptionsPerAddress"
>;

/** Counts under one key; entries at zero are deleted, so memory follows what is open. */
class Tally {
  readonly #counts = new Map<string, number>();

  get(key: string): number {
    return this.#counts.get(key) ?? 0;
  }

  add(key: string, delta: number): void {
    const next = this.get(key) + delta;
    if (next > 0) this.#counts.set(key, next);
    else this.#counts.delete(key);
  }
}

function ticket(release: () => void): QuotaTicket {
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      release();
    },
  };
}

/**
 * The counts and the decisions. Sockets are admitted by address (and in total) when they open,
 * and by subject once `connection_init` was verified; each subscription by subject, address and in
 * total when it starts. A refusal changes nothing.
 */
export class SubscriptionQuota {
  readonly #limits: QuotaLimits;
  readonly #socketsByAddress = new Tally();
  readonly #socketsBySubject = new Tally();
  readonly #operationsByAddress = new Tally();
  readonly #operationsBySubject = new Tally();
  #sockets = 0;
  #operations = 0;

  constructor(limits: QuotaLimits) {
    this.#limits = limits;
  }

  /** Sockets and subscriptions held now, in total. */
  get stats(): { sockets: number; operations: number } {
    return { sockets: this.#sockets, operations: this.#operations };
  }

  /** A socket from `address` opened (before authentication). */
  admitSocket(address: string): QuotaTicket | QuotaRefusal {
    const limits = this.#limits;
    if (this.#sockets >= limits.maxConnections) {
      return {
        limit: "maxConnections",
        allowed: limits.maxConnections,
        message: "This gateway holds as many subscription sockets as it may; try again later.",
      };
    }
    if (this.#socketsByAddress.get(address) >= limits.maxConnectionsPerAddress) {
      return {
        limit: "maxConnectionsPerAddress",
        allowed: limits.maxConnectionsPerAddress,
        message: `At most ${limits.maxConnectionsPerAddress} subscription sockets may be open from one address; close one first.`,
      };
    }
    this.#sockets += 1;
    this.#socketsByAddress.add(address, 1);
    return ticket(() => {
      this.#sockets -= 1;
      this.#socketsByAddress.add(address, -1);
    });
  }

  /** A socket was authenticated as `subject`. */
  admitSubject(subject: string): QuotaTicket | QuotaRefusal {
    const max = this.#limits.maxConnectionsPerSubject;
    if (this.#socketsBySubject.get(subject) >= max) {
      return { limit: "maxConnectionsPerSubject", allowed: max, message: `At most ${max} subscription sockets may be open for one subject; close one first.` };
    }
    this.#socketsBySubject.add(subject, 1);
    return ticket(() => this.#socketsBySubject.add(subject, -1));
  }

  /** A subscription of `subject`, on a socket from `address`, is to start. */
  admitOperation(subject: string, address: string): QuotaTicket | QuotaRefusal {
    const limits = this.#limits;
    if (this.#operations >= limits.maxSubscriptions) {
      return { limit: "maxSubscriptions", allowed: limits.maxSubscriptions, message: "This gateway runs as many subscriptions as it may; try again later." };
    }
    if (this.#operationsBySubject.get(subject) >= limits.maxSubscriptionsPerSubject) {
      const max = limits.maxSubscriptionsPerSubject;
      return { limit: "maxSubscriptionsPerSubject", allowed: max, message: `One subject may run at most ${max} subscriptions; complete one first.` };
    }
    if (this.#operationsByAddress.get(address) >= limits.maxSubscriptionsPerAddress) {
      const max = limits.maxSubscriptionsPerAddress;
      return { limit: "maxSubscriptionsPerAddress", allowed: max, message: `One address may run at most ${max} subscriptions; complete one first.` };
    }
    this.#operations += 1;
    this.#operationsBySubject.add(subject, 1);
    this.#operationsByAddress.add(address, 1);
    return ticket(() => {
      this.#operations -= 1;
      this.#operationsBySubject.add(subject, -1);
      this.#operationsByAddress.add(address, -1);
    });
  }
}

export function isRefusal(decision: QuotaTicket | QuotaRefusal): decision is QuotaRefusal {
  return "limit" in decision;
}

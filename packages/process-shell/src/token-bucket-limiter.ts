/**
 * Bounds how often one key (a credential, a client address) may be served: each key has a bucket
 * of `capacity` tokens that refills at `refillPerSecond`; a request takes one token or is refused
 * with the seconds until the next one. Memory is bounded: at most `maxKeys` buckets are kept, in
 * order of last use; a new key beyond that evicts the least recently used one. An evicted key
 * starts again with a full bucket, so under a flood of distinct keys the limit per key weakens
 * rather than the process growing; the per-key limits beside it (another key kind) still hold.
 */
export interface TokenBucketLimiterOptions {
  /** Most requests in a burst. */
  capacity: number;
  /** Tokens added per second, up to `capacity`. */
  refillPerSecond: number;
  /** Most keys tracked at once. @default 100_000 // keys */
  maxKeys?: number;
  /** The clock, in milliseconds. @default Date.now */
  now?: () => number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  at: number;
}

export class TokenBucketLimiter {
  readonly #capacity: number;
  readonly #refillPerMs: number;
  readonly #maxKeys: number;
  readonly #now: () => number;
  /** Insertion order is recency order: a used key is deleted and set again. */
  readonly #buckets = new Map<string, Bucket>();

  constructor(options: TokenBucketLimiterOptions) {
    if (!(options.capacity >= 1) || !(options.refillPerSecond > 0)) throw new RangeError("capacity must be at least 1 and refillPerSecond above 0.");
    this.#capacity = options.capacity;
    this.#refillPerMs = options.refillPerSecond / 1_000;
    this.#maxKeys = Math.max(1, options.maxKeys ?? 100_000);
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#buckets.size;
  }

  /** Takes one token of `key`'s bucket, or says how long until one is there. */
  take(key: string): RateDecision {
    const now = this.#now();
    let bucket = this.#buckets.get(key);
    if (bucket) {
      this.#buckets.delete(key);
      bucket.tokens = Math.min(this.#capacity, bucket.tokens + (now - bucket.at) * this.#refillPerMs);
      bucket.at = now;
    } else {
      if (this.#buckets.size >= this.#maxKeys) this.#buckets.delete(this.#buckets.keys().next().value as string);
      bucket = { tokens: this.#capacity, at: now };
    }
    this.#buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.#refillPerMs / 1_000)) };
  }
}

/**
 * A map whose entries expire at a given time and whose size is bounded: the oldest entry is
 * dropped when a new one would exceed `maxEntries`. Used for verified tokens and minted tokens,
 * where an attacker who can send many distinct tokens must not be able to grow memory without
 * bound.
 */
export class ExpiringCache<V> {
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    /** @default 10_000 */
    readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** `expiresAt` in epoch milliseconds. */
  set(key: string, value: V, expiresAt: number): void {
    this.#entries.delete(key);
    while (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { value, expiresAt });
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  /** Forgets every entry: what they were computed from has changed. */
  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}

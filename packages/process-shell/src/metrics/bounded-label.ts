/**
 * A label whose values come from callers (GraphQL operation names): the first `max` distinct
 * values are kept as they are, every later one reads `other`. Prometheus keeps one series per
 * label value, so a client inventing names must not be able to grow the server's memory or the
 * monitoring system's.
 */
export class BoundedLabel {
  readonly #seen = new Set<string>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  valueOf(raw: string | null | undefined): string {
    if (!raw) return "anonymous";
    if (this.#seen.has(raw)) return raw;
    // GraphQL names only, and short: anything else is not a name a client chose for an operation.
    if (this.#seen.size >= this.#max || !/^[_A-Za-z][_0-9A-Za-z]{0,63}$/.test(raw)) return "other";
    this.#seen.add(raw);
    return raw;
  }
}

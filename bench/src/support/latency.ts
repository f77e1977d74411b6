/** Runs `operation` sequentially: a warm-up, then `iterations` timed calls; returns milliseconds per call, sorted. */
export async function measureLatency(operation: () => Promise<unknown>, iterations: number, warmup = 3): Promise<number[]> {
  for (let i = 0; i < warmup; i += 1) await operation();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const started = performance.now();
    await operation();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

export const ms = (value: number) => value.toFixed(2);

/**
 * Like `measureLatency` for two operations, called in turn (a, b, a, b, ...): a burst of other work
 * on a shared machine then lands on both series alike, so their ratio holds even when neither does.
 * Stops early, after at least `minIterations`, once `budgetMs` have passed (slow queries).
 */
export async function measureLatencyPair(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  iterations: number,
  options: { warmup?: number; budgetMs?: number; minIterations?: number } = {},
): Promise<[number[], number[]]> {
  const { warmup = 3, budgetMs = Number.POSITIVE_INFINITY, minIterations = 0 } = options;
  const deadline = performance.now() + budgetMs;
  for (let i = 0; i < warmup; i += 1) {
    await a();
    await b();
  }
  const samples: [number[], number[]] = [[], []];
  for (let i = 0; i < iterations && (i < minIterations || performance.now() < deadline); i += 1) {
    for (const [index, operation] of [a, b].entries()) {
      const started = performance.now();
      await operation();
      samples[index]!.push(performance.now() - started);
    }
  }
  return [samples[0].sort((x, y) => x - y), samples[1].sort((x, y) => x - y)];
}

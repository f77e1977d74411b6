/** What one step of the replica test saw: answers, errors by code, and successes per second (for recovery times). */
export interface StepFigures {
  step: string;
  startedAt: number;
  endedAt?: number;
  answered: number;
  errors: Record<string, number>;
}

/**
 * The figures of the whole run, per step. Every request the load makes ends here once, as an answer or as an error
 * under a code: the GraphQL error's `extensions.code`, `http-<status>` for an answer without one, or
 * `network-<code>` when no answer came (the connection refused or reset).
 */
export class RunFigures {
  readonly steps: StepFigures[] = [];
  /** Successful answers per whole second since the run began. */
  private readonly perSecond = new Map<number, number>();
  private readonly began = Date.now();

  beginStep(step: string): void {
    const now = Date.now();
    const current = this.steps.at(-1);
    if (current) current.endedAt = now;
    this.steps.push({ step, startedAt: now, answered: 0, errors: {} });
  }

  end(): void {
    const current = this.steps.at(-1);
    if (current) current.endedAt = Date.now();
  }

  answered(): void {
    const current = this.steps.at(-1);
    if (current) current.answered++;
    const second = Math.floor((Date.now() - this.began) / 1000);
    this.perSecond.set(second, (this.perSecond.get(second) ?? 0) + 1);
  }

  failed(code: string): void {
    const current = this.steps.at(-1);
    if (current) current.errors[code] = (current.errors[code] ?? 0) + 1;
  }

  /** The median of successful answers per second between two instants (whole seconds inside them). */
  medianRate(from: number, to: number): number {
    const rates: number[] = [];
    for (let second = Math.ceil((from - this.began) / 1000); second < Math.floor((to - this.began) / 1000); second++)
      rates.push(this.perSecond.get(second) ?? 0);
    rates.sort((a, b) => a - b);
    return rates.length === 0 ? 0 : (rates[Math.floor(rates.length / 2)] ?? 0);
  }

  /**
   * Seconds from `from` until three whole seconds in a row reached `share` of `baseline` (full throughput again);
   * undefined when that never happened before `to`.
   */
  secondsUntilRate(from: number, to: number, baseline: number, share = 0.9): number | undefined {
    let run = 0;
    const first = Math.floor((from - this.began) / 1000);
    for (let second = first; second < Math.floor((to - this.began) / 1000); second++) {
      run = (this.perSecond.get(second) ?? 0) >= baseline * share ? run + 1 : 0;
      if (run === 3) return Math.max(0, second - 2 - (from - this.began) / 1000);
    }
    return undefined;
  }
}

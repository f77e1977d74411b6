import { LimitExceededError } from "@compliance-graph/errors";

export interface ExportSlotLimits {
  /** `AOPD_MAX_CONCURRENT_EXPORTS`: exports one aopd process builds at once. @default 2 */
  maxConcurrentExports: number;
  /** `AOPD_MAX_CONCURRENT_EXPORTS_PER_CALLER`: exports one caller (token subject) runs at once. @default 1 */
  maxConcurrentExportsPerCaller: number;
}

/**
 * Threat: an export holds its whole file in memory (the XLSX, then its base64 text in the
 * response, at aopd and again at the gateway), so a caller who starts several at once, or several
 * callers together, can take the process past its memory. Exports take a slot first; when none is
 * free the export is refused at once with LIMIT_EXCEEDED naming the limit (a queue would hold the
 * request open and still let memory pile up behind it; the client retries instead). A slot is
 * taken synchronously, before the resolver awaits anything, so two exports in one request are
 * counted as two.
 */
export class ExportSlots {
  readonly #limits: ExportSlotLimits;
  readonly #byCaller = new Map<string, number>();
  #running = 0;

  constructor(limits: ExportSlotLimits) {
    this.#limits = limits;
  }

  /** Takes a slot for `caller` or throws `LimitExceededError`; returns the function that frees it. */
  acquire(caller: string): () => void {
    const { maxConcurrentExports, maxConcurrentExportsPerCaller } = this.#limits;
    const mine = this.#byCaller.get(caller) ?? 0;
    if (mine >= maxConcurrentExportsPerCaller) {
      throw new LimitExceededError(
        "maxConcurrentExportsPerCaller",
        maxConcurrentExportsPerCaller,
        `You are running ${mine} exports; at most ${maxConcurrentExportsPerCaller} may run at once per caller. Retry when one has finished.`,
      );
    }
    if (this.#running >= maxConcurrentExports) {
      throw new LimitExceededError(
        "maxConcurrentExports",
        maxConcurrentExports,
        `${this.#running} exports are running; at most ${maxConcurrentExports} may run at once. Retry in a moment.`,
      );
    }
    this.#running += 1;
    this.#byCaller.set(caller, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running -= 1;
      const left = (this.#byCaller.get(caller) ?? 1) - 1;
      if (left === 0) this.#byCaller.delete(caller);
      else this.#byCaller.set(caller, left);
    };
  }
}

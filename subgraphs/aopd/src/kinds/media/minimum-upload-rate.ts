import { SubmissionRefusal } from "../../proofs/proof-refusal.js";

export interface MinimumUploadRate {
  /** `AOPD_UPLOAD_MIN_BYTES_PER_SECOND`: the average an upload must reach over each window; 0: no minimum. */
  minBytesPerSecond: number;
  /** `AOPD_UPLOAD_RATE_WINDOW_SECONDS`: the window's length, and so the grace period before the first judgement. */
  windowSeconds: number;
}

/**
 * Passes an upload's body through while it arrives at least at `minBytesPerSecond`, averaged over
 * each window of `windowSeconds`; below that it ends the upload with `upload_too_slow`. Threat: the
 * idle cut-off (`AOPD_UPLOAD_IDLE_SECONDS`) judges each gap alone, so a client sending a byte every
 * few seconds held an upload slot and a database connection until Node's `requestTimeout`. A window
 * average (not the average since the start) also catches a body that starts fast and then trickles.
 *
 * Only time spent waiting for the client counts: while the consumer writes a chunk to the database
 * the body is not read, and a slow database must not be blamed on the customer. The first window is
 * the grace period for a connection that starts slowly.
 */
export async function* withMinimumUploadRate(body: AsyncIterable<Buffer>, rate: MinimumUploadRate): AsyncGenerator<Buffer, void, undefined> {
  if (rate.minBytesPerSecond <= 0) {
    yield* body;
    return;
  }
  const windowMs = rate.windowSeconds * 1_000;
  const required = rate.minBytesPerSecond * rate.windowSeconds;
  const iterator = body[Symbol.asyncIterator]();
  let waitedMs = 0;
  let windowBytes = 0;
  const judgeWindow = () => {
    if (windowBytes < required) {
      throw new SubmissionRefusal(
        "upload_too_slow",
        `The upload arrived at ${Math.floor(windowBytes / rate.windowSeconds)} bytes per second over ${rate.windowSeconds} seconds; ` +
          `at least ${rate.minBytesPerSecond} are required. Try again on a faster connection.`,
      );
    }
    waitedMs = 0;
    windowBytes = 0;
  };
  for (;;) {
    const pending = iterator.next();
    let next: IteratorResult<Buffer> | undefined;
    while (next === undefined) {
      const started = performance.now();
      const outcome = await nextOrTimeout(pending, windowMs - waitedMs);
      waitedMs += performance.now() - started;
      if (outcome === "window") {
        // Left behind: nobody else reads it, and the body's end (the socket closed) must not surface as an unhandled rejection.
        pending.catch(() => {});
        waitedMs = windowMs;
        judgeWindow();
      } else {
        next = outcome;
      }
    }
    if (next.done) return;
    windowBytes += next.value.length;
    if (waitedMs >= windowMs) judgeWindow();
    yield next.value;
  }
}

async function nextOrTimeout(pending: Promise<IteratorResult<Buffer>>, ms: number): Promise<IteratorResult<Buffer> | "window"> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([pending, new Promise<"window">((resolve) => (timer = setTimeout(resolve, Math.max(0, ms), "window")))]);
  } finally {
    clearTimeout(timer);
  }
}

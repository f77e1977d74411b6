export interface PollOptions {
  /** How long to keep reading before giving up. @default 60_000 // 60 seconds: a busy machine is slow */
  timeoutMs?: number;
  /** The pause between two reads. @default 200 // milliseconds */
  intervalMs?: number;
}

/**
 * Reads `read` until `done` holds for what it returned, and returns that value. For state that only
 * polling can observe (a process coming up, Prometheus scraping on its schedule, a job of the
 * server's own timing); where the code under test can signal, await the signal instead. Fails
 * naming `what` and the last value seen once the deadline has passed.
 */
export async function pollUntil<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, options: PollOptions = {}): Promise<T> {
  const { timeoutMs = 60_000, intervalMs = 200 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} never happened within ${timeoutMs} ms; last seen: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

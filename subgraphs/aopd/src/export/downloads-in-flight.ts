/**
 * The downloads being sent by this replica. A stopping aopd marks them (`stop`) before its server
 * drains, so that a download cut when the drain ends is recorded as cut by the shutdown rather
 * than by its client, and waits for them (`settled`) before it closes the database, so that the
 * trail entry of each is written.
 */
export class DownloadsInFlight {
  readonly #running = new Set<Promise<void>>();
  #stopping = false;

  /** Whether aopd is stopping: a download cut from now on was cut by the shutdown. */
  get stopping(): boolean {
    return this.#stopping;
  }

  /** Runs a download, counted until it has ended (its trail entry written or failed). */
  async track(download: () => Promise<void>): Promise<void> {
    const running = download();
    this.#running.add(running);
    try {
      await running;
    } finally {
      this.#running.delete(running);
    }
  }

  stop(): void {
    this.#stopping = true;
  }

  /** Resolves once every download running now has ended (the server's drain has cut them by then). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#running]);
  }
}

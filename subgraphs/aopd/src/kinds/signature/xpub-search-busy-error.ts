/** The xpub search queue is full: the replica takes no more searches until some finish. */
export class XpubSearchBusyError extends Error {
  readonly code = "XPUB_SEARCH_BUSY";

  constructor(readonly maxQueued: number) {
    super(`The xpub search queue holds its maximum of ${maxQueued} searches.`);
    this.name = "XpubSearchBusyError";
  }
}

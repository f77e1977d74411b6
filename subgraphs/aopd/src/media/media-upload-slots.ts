import { BusyRefusal } from "../proofs/proof-refusal.js";

/**
 * Uploads this replica streams into the database at once. Each holds one pooled connection (its
 * transaction) for as long as the client takes to send the body, so without a bound a few slow
 * uploads would take every connection and stall the whole subgraph.
 */
export class MediaUploadSlots {
  #inUse = 0;

  constructor(private readonly max: number) {}

  /** Takes a slot or refuses (`BusyRefusal`); call the returned function to give it back. */
  take(): () => void {
    if (this.#inUse >= this.max) {
      throw new BusyRefusal(`${this.max} uploads are in progress; try again in a moment.`, 5);
    }
    this.#inUse += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inUse -= 1;
    };
  }
}

import { BusyRefusal } from "../../proofs/proof-refusal.js";

/** Seconds a refused upload is told to wait: uploads end (or are cut off) within seconds to minutes. */
const retryAfterSeconds = 5;

/** Who sends an upload and what for, as the bounds count them. */
export interface UploadClaim {
  /** What the upload is for (a credential's hash on the portal, a proof id on the officers' route): one upload at a time each. */
  target: string;
  /** Who sends it (the client address on the portal, the officer's token subject on the officers' route). */
  sender: string;
}

export interface UploadSlotLimits {
  /** `AOPD_MAX_CONCURRENT_UPLOADS`: uploads streamed at once by this replica. */
  maxConcurrentUploads: number;
  /** `AOPD_MAX_UPLOADS_PER_CLIENT`: uploads at once from one client address (or officer). */
  maxUploadsPerClient: number;
}

/**
 * The uploads this replica streams into the database at once. Threat: each upload holds one pooled
 * connection (its transaction) and a slot for as long as the client takes to send the body, so a
 * few slow uploads would take every slot and refuse every other customer (issue 26: four uploads of
 * one link, a byte every 20 s, held all four slots for minutes). So besides the replica's total:
 * one upload at a time per target (a second is refused at once, 409 `upload_in_progress`, instead of
 * queueing on the proof's row lock with a slot held), and a few per sender (429 `too_many_uploads`),
 * so that one client with many links still leaves slots to others. The minimum transfer rate
 * (`withMinimumUploadRate`) bounds how long any one slot is held. Per replica, in memory; across
 * replicas the proof's row lock with a short `lock_timeout` refuses a second upload of one proof.
 */
export class MediaUploadSlots {
  #inUse = 0;
  readonly #targets = new Set<string>();
  readonly #perSender = new Map<string, number>();

  constructor(private readonly limits: UploadSlotLimits) {}

  /** Uploads in progress on this replica. */
  get inUse(): number {
    return this.#inUse;
  }

  /** Takes a slot for the claim or refuses it; call the returned function to give it back. */
  take(claim: UploadClaim): () => void {
    if (this.#targets.has(claim.target)) {
      throw new BusyRefusal(
        "Another upload for this proof is in progress; wait until it has finished (or failed) before sending the file again.",
        retryAfterSeconds,
        "upload_in_progress",
      );
    }
    const senderUploads = this.#perSender.get(claim.sender) ?? 0;
    if (senderUploads >= this.limits.maxUploadsPerClient) {
      throw new BusyRefusal(
        `${senderUploads} uploads from this client are in progress, the most allowed at once; wait until one has finished.`,
        retryAfterSeconds,
        "too_many_uploads",
      );
    }
    if (this.#inUse >= this.limits.maxConcurrentUploads) {
      throw new BusyRefusal(`${this.limits.maxConcurrentUploads} uploads are in progress; try again in a moment.`, retryAfterSeconds);
    }
    this.#inUse += 1;
    this.#targets.add(claim.target);
    this.#perSender.set(claim.sender, senderUploads + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inUse -= 1;
      this.#targets.delete(claim.target);
      const left = (this.#perSender.get(claim.sender) ?? 1) - 1;
      if (left > 0) this.#perSender.set(claim.sender, left);
      else this.#perSender.delete(claim.sender);
    };
  }
}

import type { ProofStatus } from "../database/database-schema.js";

/**
 * Why the proof domain (ingestion, media) refused what it was asked, as a stable code. The codes
 * are the ones the public routes answer (`{ "error": code }`; a page translates `error.<code>`), so
 * a refusal crosses the HTTP edge unchanged; the edge alone decides its HTTP status
 * (`public-route-error.ts`). A caller `switch`es on `code` or tests the class.
 */
export type ProofRefusalCode = SubmissionRefusalCode | ProofStateRefusalCode | BusyRefusalCode | "unknown_proof";

/** The submission itself (an address, a signature, a transaction id, a file) is not acceptable. */
export type SubmissionRefusalCode =
  | "invalid_address"
  | "format_mismatch"
  | "address_mismatch"
  | "malformed_signature"
  | "unsupported_signature"
  | "signature_mismatch"
  | "wrong_message"
  | "xpub_required"
  | "invalid_xpub"
  | "xpub_mismatch"
  | "invalid_tx_id"
  | "empty_media"
  | "invalid_image"
  | "image_too_large"
  | "media_too_large"
  | "unsupported_media_type"
  | "upload_too_slow";

/** The proof exists but cannot take this now: it is of another kind, settled, expired or closed to more attempts. */
export type ProofStateRefusalCode = "wrong_kind" | "not_pending" | "expired" | "too_many_attempts";

/**
 * A refusal of the proof domain: nothing was changed, and the message is an English sentence for
 * the customer or officer that names what was wrong and what is allowed (never SQL, a stack or a
 * host). Anything else a domain function throws is a fault, not a refusal.
 */
export abstract class ProofRefusal extends Error {
  abstract readonly code: ProofRefusalCode;

  constructor(reason: string) {
    super(reason);
    this.name = new.target.name;
  }
}

/** The submission is wrong: sending it again will not help, a corrected one may. */
export class SubmissionRefusal extends ProofRefusal {
  constructor(
    readonly code: SubmissionRefusalCode,
    reason: string,
  ) {
    super(reason);
  }
}

/** No proof of the kind asked for belongs to this credential or id. */
export class UnknownProofRefusal extends ProofRefusal {
  readonly code = "unknown_proof";
}

/** The proof cannot take this in its state; `proofStatus` says which (for `not_pending`). */
export class ProofStateRefusal extends ProofRefusal {
  constructor(
    readonly code: ProofStateRefusalCode,
    reason: string,
    readonly proofStatus?: ProofStatus,
  ) {
    super(reason);
  }
}

/** A bound is reached right now: the replica's (uploads, xpub searches), the proof's (one upload at a time) or the sender's. */
export type BusyRefusalCode = "service_unavailable" | "upload_in_progress" | "too_many_uploads";

/** A bound is reached (`code` says which); the same request may succeed after `retryAfterSeconds`. */
export class BusyRefusal extends ProofRefusal {
  constructor(
    reason: string,
    readonly retryAfterSeconds: number,
    readonly code: BusyRefusalCode = "service_unavailable",
  ) {
    super(reason);
  }
}

import { PublicError, type PublicErrorCode } from "@compliance-graph/errors";
import type { ProofStatus } from "../database/database-schema.js";

/**
 * Why the proof domain (the state machine, the kinds' submissions, media) refused what it was
 * asked, as a stable code. A caller `switch`es on `refusal`; each edge answers from one table: the
 * public routes by `portalErrorStatus` (`public-route-error.ts`), GraphQL by the public `code`
 * each refusal carries (`publicCodeOf` below), so a refusal crosses any edge without its message
 * being read again.
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

/**
 * The proof exists but cannot take this now: it is of another kind, its status does not allow the
 * change (`wrong_status`; a pending proof that took something else already is `not_pending`), its
 * due time passed, or it takes no more attempts.
 */
export type ProofStateRefusalCode = "wrong_kind" | "wrong_status" | "not_pending" | "expired" | "too_many_attempts";

/** A bound is reached right now: the replica's (uploads, xpub searches), the proof's (one upload at a time) or the sender's. */
export type BusyRefusalCode = "service_unavailable" | "upload_in_progress" | "too_many_uploads";

/**
 * The GraphQL edge's table: the public code each refusal answers with. A submission that names
 * its argument is `BAD_USER_INPUT` with that `field`; a status the change does not allow is
 * `CONFLICT` with the proof's `status`.
 */
const publicCodeOf: Record<ProofRefusalCode, PublicErrorCode> = {
  invalid_address: "BAD_USER_INPUT",
  format_mismatch: "BAD_USER_INPUT",
  address_mismatch: "BAD_USER_INPUT",
  malformed_signature: "BAD_USER_INPUT",
  unsupported_signature: "BAD_USER_INPUT",
  signature_mismatch: "BAD_USER_INPUT",
  wrong_message: "BAD_USER_INPUT",
  xpub_required: "BAD_USER_INPUT",
  invalid_xpub: "BAD_USER_INPUT",
  xpub_mismatch: "BAD_USER_INPUT",
  invalid_tx_id: "BAD_USER_INPUT",
  empty_media: "BAD_USER_INPUT",
  invalid_image: "BAD_USER_INPUT",
  image_too_large: "BAD_USER_INPUT",
  media_too_large: "BAD_USER_INPUT",
  unsupported_media_type: "BAD_USER_INPUT",
  upload_too_slow: "BAD_USER_INPUT",
  wrong_kind: "BAD_USER_INPUT",
  unknown_proof: "NOT_FOUND",
  wrong_status: "CONFLICT",
  not_pending: "CONFLICT",
  expired: "CONFLICT",
  too_many_attempts: "CONFLICT",
  upload_in_progress: "CONFLICT",
  too_many_uploads: "LIMIT_EXCEEDED",
  service_unavailable: "SERVICE_UNAVAILABLE",
};

export interface ProofRefusalDetails {
  /** The argument refused, as a GraphQL caller names it (`txId`, `id`): the message starts with it. */
  field?: string;
  /** The proof's status, where the refusal is about it. */
  proofStatus?: ProofStatus;
  /** Seconds until the same request may succeed (`Retry-After`). */
  retryAfterSeconds?: number;
}

/**
 * A refusal of the proof domain: nothing was changed, and the message is an English sentence for
 * the customer or officer that names what was wrong and what is allowed (never SQL, a stack or a
 * host). A member of the one error family (`PublicError`): anything else a domain function throws
 * is a fault, not a refusal.
 */
export abstract class ProofRefusal extends PublicError {
  readonly proofStatus: ProofStatus | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly refusal: ProofRefusalCode,
    reason: string,
    details: ProofRefusalDetails = {},
  ) {
    const code = publicCodeOf[refusal];
    super(code, details.field ? `${details.field}: ${reason}` : reason, extensionsOf(code, details));
    this.proofStatus = details.proofStatus;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/** What a GraphQL client reads beside the code, as the family's other members carry it. */
function extensionsOf(code: PublicErrorCode, details: ProofRefusalDetails): Record<string, unknown> {
  switch (code) {
    case "BAD_USER_INPUT":
      return details.field ? { field: details.field } : {};
    case "NOT_FOUND":
      return { what: "The proof" };
    case "CONFLICT":
      return details.proofStatus ? { status: details.proofStatus } : {};
    case "SERVICE_UNAVAILABLE":
      return { retryable: true };
    default:
      return {};
  }
}

/** The submission is wrong: sending it again will not help, a corrected one may. */
export class SubmissionRefusal extends ProofRefusal {
  declare readonly refusal: SubmissionRefusalCode;

  constructor(code: SubmissionRefusalCode, reason: string, details: Pick<ProofRefusalDetails, "field"> = {}) {
    super(code, reason, details);
  }
}

/** No proof of the kind asked for belongs to this credential or id. */
export class UnknownProofRefusal extends ProofRefusal {
  declare readonly refusal: "unknown_proof";

  constructor(reason: string) {
    super("unknown_proof", reason);
  }

  /** No proof has this id (an officer's or API client's). */
  static byId(id: string): UnknownProofRefusal {
    return new UnknownProofRefusal(`The proof ${JSON.stringify(id)} was not found.`);
  }
}

/** The proof cannot take this in its state; `proofStatus` says which (for `wrong_status` and `not_pending`). */
export class ProofStateRefusal extends ProofRefusal {
  declare readonly refusal: ProofStateRefusalCode;

  constructor(code: ProofStateRefusalCode, reason: string, proofStatus?: ProofStatus, details: Pick<ProofRefusalDetails, "field"> = {}) {
    super(code, reason, { ...details, ...(proofStatus ? { proofStatus } : {}) });
  }
}

/**
 * Whether a change was refused because the proof moved on since it was read (another status, or
 * its due time passed): a caller that raced another writer asks this, then reads the proof again.
 */
export function isMovedOn(error: unknown): error is ProofStateRefusal {
  return error instanceof ProofStateRefusal && (error.refusal === "wrong_status" || error.refusal === "expired");
}

/** A bound is reached (`refusal` says which); the same request may succeed after `retryAfterSeconds`. */
export class BusyRefusal extends ProofRefusal {
  declare readonly refusal: BusyRefusalCode;
  declare readonly retryAfterSeconds: number;

  constructor(reason: string, retryAfterSeconds: number, code: BusyRefusalCode = "service_unavailable") {
    super(code, reason, { retryAfterSeconds });
  }
}

/**
 * Why a proof of control was refused. The codes are stable so that callers can `switch` on them
 * and turn them into `extensions.code`; the `reason` beside them is a sentence written for the
 * client. Neither ever carries a stack trace, a library's internal message or key material.
 */
export type OwnershipFailureCode =
  /** The address is not a valid address of the asset family, or of the requested network. */
  | "INVALID_ADDRESS"
  /** The address is valid but not of the format (or network) the proof request asked for. */
  | "FORMAT_MISMATCH"
  /** The signature cannot be decoded: bad base64 or hex, wrong length, unknown header byte. */
  | "MALFORMED_SIGNATURE"
  /** The signature is well formed but uses a scheme or script this service does not verify. */
  | "UNSUPPORTED_SIGNATURE"
  /** The signature is well formed but was not made by the key behind the address over this message. */
  | "SIGNATURE_MISMATCH"
  /** The extended public key cannot be used: bad encoding, unknown version, or a private key. */
  | "INVALID_EXTENDED_KEY";

export interface OwnershipFailure {
  readonly ok: false;
  readonly code: OwnershipFailureCode;
  readonly reason: string;
}

export function ownershipFailure(code: OwnershipFailureCode, reason: string): OwnershipFailure {
  return { ok: false, code, reason };
}

/** The one answer for a well-formed signature that does not verify; it says no more than that. */
export function signatureMismatch(): OwnershipFailure {
  return ownershipFailure("SIGNATURE_MISMATCH", "The signature was not made by the key of this address over this message.");
}

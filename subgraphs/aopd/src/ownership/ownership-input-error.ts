import type { OwnershipFailureCode } from "./ownership-failure.js";

/**
 * Thrown where a function has no result type to carry a refusal (`findXpubDerivation`). The
 * message is the same client-safe sentence an `OwnershipFailure` carries, and `code` is one of
 * the same stable codes, so a resolver can turn it into a user-input error without rewording.
 */
export class OwnershipInputError extends Error {
  readonly code: OwnershipFailureCode;

  constructor(code: OwnershipFailureCode, message: string) {
    super(message);
    this.name = "OwnershipInputError";
    this.code = code;
  }
}

import { PublicError } from "./public-error.js";

/** What a client reads instead of a fault's own message, which may carry SQL, a host or a stack. */
export const maskedErrorMessage = "Unexpected error.";

/**
 * A fault: anything that escaped without being one of the family's answers (a driver error, a bug).
 * The client learns only that; the fault itself is logged where it is caught, with the request id.
 */
export class InternalServerError extends PublicError {
  constructor() {
    super("INTERNAL_SERVER_ERROR", maskedErrorMessage);
  }
}

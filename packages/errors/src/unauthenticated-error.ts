import { PublicError } from "./public-error.js";

/**
 * The caller did not prove who they are. The message deliberately says nothing about why a token
 * failed verification: that detail helps an attacker probe, not a client recover.
 */
export class UnauthenticatedError extends PublicError {
  constructor(message = "A valid bearer token is required.") {
    super("UNAUTHENTICATED", message);
  }
}

import { PublicError } from "./public-error.js";

/**
 * A part the request needs (the database, a subgraph, the identity provider) cannot be reached
 * right now; the same request may succeed later. The message names the part, never its host or
 * port, which are nobody's business outside the deployment.
 */
export class ServiceUnavailableError extends PublicError {
  constructor(
    /** The part, as a reader names it: "database", "aopd service", "identity provider". */
    readonly part: string,
    message = `The ${part} is unavailable; try again shortly.`,
  ) {
    super("SERVICE_UNAVAILABLE", message, { retryable: true });
  }
}

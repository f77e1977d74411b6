import { ServiceUnavailableError } from "./service-unavailable-error.js";

/**
 * The identity provider could not be reached (its discovery document or signing keys), so a token
 * cannot be verified now: answered 503, not 401, since the caller did nothing wrong and may retry.
 * The client sees only that; `detail` (the fetch's failure, which names hosts) is for the logs.
 */
export class IdentityProviderUnavailableError extends ServiceUnavailableError {
  constructor(readonly detail: string) {
    super("identity provider");
  }
}

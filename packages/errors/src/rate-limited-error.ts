import { PublicError } from "./public-error.js";

/**
 * A caller used up a quota of a window (requests or operation cost, per client or per subject).
 * Unlike `LIMIT_EXCEEDED`, the same request succeeds later: `retryAfterSeconds` says when, and an
 * HTTP edge answers it with 429 and `Retry-After`.
 */
export class RateLimitedError extends PublicError {
  readonly retryAfterSeconds: number;

  constructor(quota: string, allowed: number, retryAfterSeconds: number, message: string) {
    super("RATE_LIMITED", message, { quota, allowed, retryAfterSeconds });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

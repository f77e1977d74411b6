/**
 * Why the screening provider could not answer. The message names the provider and the code only:
 * never the URL or the key (screening-provider-client.ts says why).
 */
export type ScreeningProviderErrorCode =
  /** No answer: refused, reset, DNS, or none within the request timeout. */
  | "unreachable"
  /** HTTP 429 (`retryAfterMs` when the provider said for how long). */
  | "rate_limited"
  /** HTTP 401 or 403: the key is wrong or revoked. */
  | "unauthorized"
  /** HTTP 5xx. */
  | "server_error"
  /** Not the documented shape (another status, not JSON, no `identifications` array). */
  | "bad_response";

export class ScreeningProviderError extends Error {
  override readonly name = "ScreeningProviderError";

  constructor(
    readonly code: ScreeningProviderErrorCode,
    readonly provider: string,
    readonly retryAfterMs?: number,
  ) {
    super(`The ${provider} screening provider failed: ${code.replace("_", " ")}.`);
  }
}

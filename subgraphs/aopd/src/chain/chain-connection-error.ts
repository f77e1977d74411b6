/**
 * Why a chain connection could not answer. The watcher backs off on every one of these; the code
 * is what stats and logs show. The message names the network only: the connection's URL may carry
 * an API key (in its path, query or user info) and must never reach a log or an error.
 */
export type ChainConnectionErrorCode =
  /** No answer: refused, reset, DNS, or no answer within the request timeout. */
  | "unreachable"
  /** HTTP 429: the provider asks us to slow down (`retryAfterMs` when it said for how long). */
  | "rate_limited"
  /** HTTP 5xx. */
  | "server_error"
  /** An answer that is not what the API promises (not JSON, a JSON-RPC error, an unexpected status). */
  | "bad_response";

export class ChainConnectionError extends Error {
  override readonly name = "ChainConnectionError";

  constructor(
    readonly code: ChainConnectionErrorCode,
    readonly network: string,
    /** How long the provider asked us to wait (`Retry-After`), in milliseconds; undefined when it did not say. */
    readonly retryAfterMs?: number,
  ) {
    super(`The ${network} chain connection failed: ${code.replace("_", " ")}.`);
  }
}

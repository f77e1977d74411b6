/** PostgreSQL's `query_canceled`: `statement_timeout` fired (or an operator cancelled the backend). */
const queryCanceled = "57014";

/**
 * Whether the database cancelled a statement that ran longer than its `statement_timeout`,
 * looking through the chain of `originalError` and `cause`. The server answered and rolled the
 * statement (and its transaction) back, so the connection is fine and this is no outage: the
 * request is SERVICE_UNAVAILABLE (the database is too slow right now) and one warning line, not a
 * stack trace per request.
 */
export function isStatementTimeout(error: unknown): boolean {
  let current = error;
  for (let depth = 0; current !== null && typeof current === "object" && depth < 8; depth += 1) {
    if ((current as { code?: unknown }).code === queryCanceled) return true;
    current = (current as { originalError?: unknown; cause?: unknown }).originalError ?? (current as { cause?: unknown }).cause;
  }
  return false;
}

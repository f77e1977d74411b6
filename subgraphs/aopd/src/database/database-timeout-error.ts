/**
 * The database did not answer a statement within its timeout plus the client's grace, and the
 * connection was closed. The code is the socket's `ETIMEDOUT`, so the error is an outage of the
 * database wherever outages are recognised (`isConnectionFailure`): SERVICE_UNAVAILABLE, logged
 * once while it lasts.
 *
 * What happened to the statement is not known. Closing the connection ends a transaction that
 * has not sent COMMIT (the server rolls it back when it sees the connection gone), but a statement
 * outside a transaction, or a COMMIT, that the server had already received may still take effect
 * once a frozen server resumes. Callers of writes must therefore treat this as "outcome unknown",
 * never as "did not happen" (docs/reliability.md).
 */
export class DatabaseTimeoutError extends Error {
  readonly code = "ETIMEDOUT";

  constructor(readonly timeoutMs: number) {
    super(`The database did not answer within ${timeoutMs} ms; the connection was closed.`);
    this.name = "DatabaseTimeoutError";
  }
}

/** Socket-level failures: nothing answered, or the connection broke. */
const socketCodes = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_CLOSED"]);

/** PostgreSQL's own: class 08 (connection exception) and the server shutting down or starting. */
const postgresStates = /^(08...|57P01|57P02|57P03)$/;

/** What node-postgres says when a connection it holds is gone. */
const droppedConnection = /^(Connection terminated|Client has encountered a connection error|Connection terminated unexpectedly)/;

/**
 * Whether an error means that a dependency could not be reached (rather than that the request was
 * wrong or the code is), looking through the chain of `originalError` and `cause` that GraphQL and
 * drivers wrap errors in. Such an error is reported as SERVICE_UNAVAILABLE, not as a bug.
 */
export function isConnectionFailure(error: unknown): boolean {
  let current = error;
  for (let depth = 0; current !== null && typeof current === "object" && depth < 8; depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (socketCodes.has(code) || postgresStates.test(code))) return true;
    if (typeof message === "string" && droppedConnection.test(message)) return true;
    current = (current as { originalError?: unknown; cause?: unknown }).originalError ?? (current as { cause?: unknown }).cause;
  }
  return false;
}

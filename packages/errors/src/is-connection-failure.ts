/**
 * Socket-level failures: nothing answered, the connection broke, or nothing answered in time
 * (undici's header and body timeouts: a subgraph that accepted the request and went silent).
 */
const socketCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_CLOSED",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/** PostgreSQL's own: class 08 (connection exception) and the server shutting down or starting. */
const postgresStates = /^(08...|57P01|57P02|57P03)$/;

/**
 * What node-postgres says when a connection it holds is gone, or when no connection could be had
 * within the pool's `connectionTimeoutMillis` (all of them busy with a server that went silent).
 */
const droppedConnection = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|timeout expired)/;

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

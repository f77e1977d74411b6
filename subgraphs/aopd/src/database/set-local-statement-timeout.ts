import type pg from "pg";

/**
 * Sets the `statement_timeout` of the client's open transaction, for that transaction only: long
 * work on a dedicated client (an export's or a seed's COPY) gets the long timeout, and the
 * connection goes back to the pool with the queries' one. Nothing is set when `timeoutMs` is absent.
 */
export async function setLocalStatementTimeout(client: pg.ClientBase, timeoutMs: number | undefined): Promise<void> {
  if (timeoutMs !== undefined) await client.query(`SET LOCAL statement_timeout = ${Math.trunc(timeoutMs)}`);
}

import { randomUUID } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

export const requestIdHeader = "x-request-id";

/**
 * The id that ties the log lines of one client request together across gateway and subgraphs. A
 * well-formed incoming id is kept (the gateway passes its own on); anything else is replaced, so a
 * client cannot inject arbitrary text into the logs.
 */
export function requestIdFrom(headers: IncomingHttpHeaders): string {
  const incoming = headers[requestIdHeader];
  return typeof incoming === "string" && /^[A-Za-z0-9._-]{1,64}$/.test(incoming) ? incoming : randomUUID();
}

import type { IncomingMessage } from "node:http";

/** The request body was larger than the configured limit; answered with HTTP 413. */
export class BodyTooLargeError extends Error {
  readonly code = "BODY_TOO_LARGE";

  constructor(readonly limitBytes: number) {
    super(`The request body exceeds ${limitBytes} bytes.`);
  }
}

/** The request body was not valid JSON; answered with HTTP 400. */
export class MalformedBodyError extends Error {
  readonly code = "MALFORMED_BODY";
}

/**
 * Reads and parses a JSON request body, refusing more than `limitBytes` before it is buffered: a
 * client cannot make the server hold an arbitrarily large body in memory. An empty body parses to
 * `undefined` (GET requests and bodiless POSTs are for the GraphQL layer to judge).
 */
export async function readJsonBody(request: IncomingMessage, limitBytes: number): Promise<unknown> {
  const declared = Number(request.headers["content-length"] ?? 0);
  if (declared > limitBytes) throw new BodyTooLargeError(limitBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) throw new BodyTooLargeError(limitBytes);
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks, size).toString("utf8"));
  } catch {
    throw new MalformedBodyError("The request body is not valid JSON.");
  }
}

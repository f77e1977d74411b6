import type { ServerResponse } from "node:http";

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  response.end(text);
}

/** An error answered outside GraphQL execution, in the shape a GraphQL client reads: `{ errors: [...] }`. */
export function sendGraphQLError(response: ServerResponse, status: number, error: { message: string; extensions: Record<string, unknown> }): void {
  sendJson(response, status, { errors: [{ message: error.message, extensions: error.extensions }] });
}

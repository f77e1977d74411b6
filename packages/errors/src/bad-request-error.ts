import { PublicError } from "./public-error.js";

/**
 * The request is well-formed but not one this endpoint serves (a subscription sent over HTTP, a
 * query sent to the subscription socket, a subscription no subgraph can run); the message says
 * where or how to send it instead.
 */
export class BadRequestError extends PublicError {
  constructor(message: string, extensions: Record<string, unknown> = {}) {
    super("BAD_REQUEST", message, extensions);
  }
}

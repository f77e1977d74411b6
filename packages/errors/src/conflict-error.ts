import { PublicError } from "./public-error.js";

/** The request is valid but the current state of the resource does not allow it. */
export class ConflictError extends PublicError {
  constructor(message: string, extensions: Record<string, unknown> = {}) {
    super("CONFLICT", message, extensions);
  }
}

import { PublicError } from "./public-error.js";

/** An operator-set limit (page size, export size, query depth, ...) was exceeded. */
export class LimitExceededError extends PublicError {
  constructor(limit: string, allowed: number, message: string) {
    super("LIMIT_EXCEEDED", message, { limit, allowed });
  }
}

import { PublicError } from "./public-error.js";

export class NotFoundError extends PublicError {
  constructor(what: string, id: string) {
    super("NOT_FOUND", `${what} ${JSON.stringify(id)} was not found.`, { what });
  }
}

import { PublicError } from "./public-error.js";

/**
 * Bad input: names the offending field (as a dotted path from the argument, for example
 * `filter.is.any.status`) and says what is allowed. Nothing has been changed when it is thrown.
 */
export class UserInputError extends PublicError {
  readonly field: string;

  constructor(field: string, message: string) {
    super("BAD_USER_INPUT", `${field}: ${message}`, { field });
    this.field = field;
  }
}

import { PublicError } from "./public-error.js";

/** The caller is known but lacks the role a field needs; the role is named so it can be requested. */
export class ForbiddenError extends PublicError {
  readonly requiredRole: string;

  constructor(requiredRole: string, field?: string) {
    super("FORBIDDEN", field ? `${field} requires the role "${requiredRole}".` : `This operation requires the role "${requiredRole}".`, { requiredRole });
    this.requiredRole = requiredRole;
  }
}

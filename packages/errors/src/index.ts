export { PublicError, type PublicErrorCode } from "./public-error.js";
export { UserInputError } from "./user-input-error.js";
export { NotFoundError } from "./not-found-error.js";
export { LimitExceededError } from "./limit-exceeded-error.js";
export { UnauthenticatedError } from "./unauthenticated-error.js";
export { ForbiddenError } from "./forbidden-error.js";
export { ConflictError } from "./conflict-error.js";
export { maskError, maskedErrorMessage, publicErrorIn } from "./mask-error.js";

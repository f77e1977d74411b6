import type { ASTNode } from "graphql";
import { PublicError } from "./public-error.js";

/**
 * A variable's value does not fit its declared type. The message is graphql-js's coercion
 * message, which names the variable and what its type allows; `nodes` point at its definition.
 */
export class InvalidVariableError extends PublicError {
  constructor(message: string, nodes?: readonly ASTNode[]) {
    super("BAD_USER_INPUT", message, {}, nodes);
  }
}

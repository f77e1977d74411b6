import { GraphQLError, type ASTNode } from "graphql";

/**
 * The stable codes a client can `switch` on. They travel as `extensions.code`; the message beside
 * them is written for the client and never carries SQL, stack traces or internal state.
 */
export type PublicErrorCode =
  | "BAD_REQUEST"
  | "BAD_USER_INPUT"
  | "NOT_FOUND"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "LIMIT_EXCEEDED"
  | "RATE_LIMITED"
  | "CONFLICT"
  | "SERVICE_UNAVAILABLE"
  | "INTERNAL_SERVER_ERROR";

/**
 * Base of the one error family: every error thrown on purpose, by a domain function or an edge,
 * is a `PublicError` (or a subclass a deployable adds, such as aopd's proof refusals), so that a
 * caller `switch`es on `code` and each edge answers from one table: GraphQL by `extensions.code`
 * (`maskError`), an HTTP route by the status its table gives the code, a WebSocket by its close
 * codes. Its message is safe to show to a client. Anything else that escapes is a fault and is
 * masked (see `maskError`).
 */
export class PublicError extends GraphQLError {
  readonly code: PublicErrorCode;

  constructor(
    code: PublicErrorCode,
    message: string,
    extensions: Record<string, unknown> = {},
    /** Where in the operation the error is (its `locations`). */
    nodes?: ASTNode | readonly ASTNode[],
  ) {
    super(message, { ...(nodes ? { nodes } : {}), extensions: { ...extensions, code } });
    this.code = code;
    this.name = new.target.name;
  }
}

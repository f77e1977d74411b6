import type { GraphQLFormattedError } from "graphql";
import { InternalServerError } from "./internal-server-error.js";
import { PublicError } from "./public-error.js";

/**
 * Errors raised by GraphQL itself (parse, validation, variable coercion) and by Apollo Server's
 * request handling describe the client's own request, so they are shown as they are.
 */
const requestErrorCodes = new Set([
  "GRAPHQL_PARSE_FAILED",
  "GRAPHQL_VALIDATION_FAILED",
  "BAD_USER_INPUT",
  "BAD_REQUEST",
  "OPERATION_RESOLUTION_FAILURE",
  "PERSISTED_QUERY_NOT_FOUND",
  "PERSISTED_QUERY_NOT_SUPPORTED",
]);

const publicCodes = new Set<string>([
  ...requestErrorCodes,
  "NOT_FOUND",
  "UNAUTHENTICATED",
  "FORBIDDEN",
  "LIMIT_EXCEEDED",
  "RATE_LIMITED",
  "CONFLICT",
  "SERVICE_UNAVAILABLE",
]);

/**
 * The one place that decides what of an error a client sees. A `PublicError` (or an error GraphQL
 * raised about the request) passes with its message and code but without a stack trace; anything
 * else, a driver error carrying SQL for instance, becomes a bare `INTERNAL_SERVER_ERROR`.
 *
 * `trustCodes` is for the gateway: subgraphs mask their own errors, so a public code that arrives
 * from a subgraph is already safe.
 */
export function maskError(formatted: GraphQLFormattedError, error: unknown, options: { trustCodes?: boolean } = {}): GraphQLFormattedError {
  const code = formatted.extensions?.code;
  const isPublic =
    publicErrorIn(error) !== undefined || (typeof code === "string" && (requestErrorCodes.has(code) || (options.trustCodes === true && publicCodes.has(code))));
  if (isPublic) {
    const { stacktrace: _stacktrace, exception: _exception, ...extensions } = formatted.extensions ?? {};
    return { ...formatted, extensions };
  }
  const internal = new InternalServerError();
  return {
    message: internal.message,
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
    extensions: internal.extensions,
  };
}

/** Resolver errors arrive wrapped in a GraphQLError; the thrown value is its `originalError`. */
export function publicErrorIn(error: unknown): PublicError | undefined {
  let current = error;
  for (let depth = 0; current !== null && typeof current === "object" && depth < 8; depth += 1) {
    if (current instanceof PublicError) return current;
    current = (current as { originalError?: unknown }).originalError;
  }
  return undefined;
}

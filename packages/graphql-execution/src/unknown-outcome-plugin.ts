import type { ApolloServerPlugin, BaseContext } from "@apollo/server";
import type { GraphQLFormattedError } from "graphql";

/** `extensions.outcome` of a mutation that failed with SERVICE_UNAVAILABLE: it may or may not have taken effect. */
export const unknownOutcome = "UNKNOWN";

/**
 * The one place that says what a SERVICE_UNAVAILABLE means for a mutation. For a query it means
 * "nothing was read; retry" (`retryable: true`). For a mutation it cannot mean "nothing happened":
 * the subgraph or its database may have been cut off after the write reached it (a COMMIT sent to
 * a database that froze, a subgraph that timed out while its statement ran), and a write that the
 * client was told had failed would then be committed all the same. Following `retryable: true`
 * would then make the write twice (a second proof, a second live credential).
 *
 * So a mutation's SERVICE_UNAVAILABLE carries `extensions.outcome: "UNKNOWN"` and no
 * `retryable`: the client reads the state before it tries again, or retries with the same
 * idempotency key, which returns the first result instead of making a second (docs/aopd-api.md).
 * Runs at the gateway (for its own timeouts and for what the subgraphs send) and at each
 * subgraph (for callers that reach it directly).
 */
export const unknownOutcomePlugin: ApolloServerPlugin<BaseContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ operation, response }) {
        if (operation?.operation !== "mutation" || response.body.kind !== "single") return;
        const { errors } = response.body.singleResult;
        if (errors?.some(isUnavailable)) response.body.singleResult.errors = errors.map((error) => (isUnavailable(error) ? withUnknownOutcome(error) : error));
      },
    };
  },
};

function isUnavailable(error: GraphQLFormattedError): boolean {
  return error.extensions?.code === "SERVICE_UNAVAILABLE";
}

function withUnknownOutcome(error: GraphQLFormattedError): GraphQLFormattedError {
  const { retryable: _retryable, ...extensions } = error.extensions ?? {};
  // "The database is unavailable; try again shortly." keeps its first half: trying again blindly is what must not happen.
  const part = error.message.split(";")[0] ?? error.message;
  return {
    ...error,
    message: `${part}; whether this mutation took effect is unknown: read before you try again, or retry with the same idempotency key.`,
    extensions: { ...extensions, outcome: unknownOutcome },
  };
}

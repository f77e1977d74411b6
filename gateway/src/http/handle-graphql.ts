import type { ApolloServer } from "@apollo/server";
import type { Identity } from "@compliance-graph/identity";
import { ServiceUnavailableError } from "@compliance-graph/errors";
import { sendGraphQLError, type Logger, type RouteCall } from "@compliance-graph/process-shell";
import { answerApolloRequest, readGraphQLBody, writeGraphQLAnswer } from "@compliance-graph/graphql-execution";
import type { GatewayContext } from "../gateway-context.js";
import type { QuotaDoor } from "../quotas/quota-door.js";
import type { OperationUsage } from "../usage/operation-usage.js";
import type { InflightRequestSharing } from "./share-inflight-requests.js";

export interface GraphQLHandlerOptions {
  apollo: ApolloServer<GatewayContext>;
  /** Whether Apollo serves a supergraph yet: not while an empty schema registry waits for its first version. */
  serving: () => boolean;
  maxBodyBytes: number;
  logger: Logger;
  /** Identical queries of one identity in flight share one execution (share-inflight-requests.ts); off when undefined. */
  sharing?: InflightRequestSharing | undefined;
  /** Requests and cost per client and subject (quotas/); none when undefined. */
  quotas?: QuotaDoor | undefined;
  /** Usage recording (usage/): a request answered with another's execution is counted by the other's operation. */
  usage?: OperationUsage | undefined;
}

/**
 * `/graphql`, an identified route: the shell's door authenticated the caller first (nothing of the
 * request is parsed for an unknown caller); then its request quota is counted (429 over it, see
 * quotas/); then the body is read within its limit, then Apollo Server validates, authorizes, plans
 * and executes, or the request joins an identical request of the same caller already doing so.
 */
export function createGraphQLHandler(options: GraphQLHandlerOptions) {
  const { apollo, serving, maxBodyBytes, logger, sharing, quotas, usage } = options;
  return async ({ request, response, requestId, identity }: RouteCall<Identity>): Promise<void> => {
    if (!identity) return;
    if (!serving()) {
      const unavailable = new ServiceUnavailableError(
        "supergraph",
        "No supergraph is published yet: the schema registry serves no version; try again shortly.",
      );
      // About one poll of the registry (GATEWAY_REGISTRY_POLL_INTERVAL_MS) after a publish, it is served.
      response.setHeader("retry-after", "2");
      return sendGraphQLError(response, 503, unavailable);
    }
    if (quotas?.refuseRequest(identity, response)) return;
    const read = await readGraphQLBody(request, response, maxBodyBytes);
    if (!read) return;
    // What usage recorded for this request is found by its key: a request that joins its execution is counted by it.
    const requestKey = {};
    const execute = async () => ({
      ...(await answerApolloRequest(apollo, request, read.body, async () => ({
        identity,
        requestId,
        logger: logger.child({ requestId, subject: identity.subject, client: identity.client }),
        requestKey,
      }))),
      requestKey,
    });
    const key = sharing?.keyOf(identity, request, read.body);
    // A request that joins an identical one's execution is one more use of the same operation by the same client (the key holds both).
    const countJoined = (answer: { requestKey: object }) => usage?.recordAgain(answer.requestKey);
    writeGraphQLAnswer(response, key === undefined ? await execute() : await sharing!.share(key, execute, countJoined));
  };
}

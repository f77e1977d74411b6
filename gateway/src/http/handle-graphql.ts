import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApolloServer } from "@apollo/server";
import { sendGraphQLError, type Logger } from "@compliance-graph/process-shell";
import { answerApolloRequest, readGraphQLBody, writeGraphQLAnswer } from "@compliance-graph/graphql-execution";
import type { AccessTokenVerifier } from "../authentication/access-token-verifier.js";
import { authenticateRequest } from "../authentication/authenticate-request.js";
import type { GatewayContext } from "../gateway-context.js";
import type { InflightRequestSharing } from "./share-inflight-requests.js";

export interface GraphQLHandlerOptions {
  apollo: ApolloServer<GatewayContext>;
  verifier: AccessTokenVerifier;
  maxBodyBytes: number;
  logger: Logger;
  /** Identical queries of one identity in flight share one execution (share-inflight-requests.ts); off when undefined. */
  sharing?: InflightRequestSharing | undefined;
}

/**
 * `/graphql`: authenticate first (nothing of the request is parsed for an unknown caller), then
 * read the body within its limit, then let Apollo Server validate, authorize, plan and execute,
 * or join an identical request of the same caller already doing so.
 */
export function createGraphQLHandler(options: GraphQLHandlerOptions) {
  const { apollo, verifier, maxBodyBytes, logger, sharing } = options;
  return async (request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> => {
    const identity = await authenticateRequest(request, response, { verifier, logger, requestId, refuse: (status, error) => sendGraphQLError(response, status, error) });
    if (!identity) return;
    const read = await readGraphQLBody(request, response, maxBodyBytes);
    if (!read) return;
    const execute = () =>
      answerApolloRequest(apollo, request, read.body, async () => ({
        identity,
        requestId,
        logger: logger.child({ requestId, subject: identity.subject, client: identity.client }),
      }));
    const key = sharing?.keyOf(identity, request, read.body);
    writeGraphQLAnswer(response, key === undefined ? await execute() : await sharing!.share(key, execute));
  };
}

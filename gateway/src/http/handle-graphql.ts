import type { ApolloServer } from "@apollo/server";
import type { Identity } from "@compliance-graph/identity";
import type { Logger, RouteCall } from "@compliance-graph/process-shell";
import { executeApolloRequest, readGraphQLBody } from "@compliance-graph/graphql-execution";
import type { GatewayContext } from "../gateway-context.js";

export interface GraphQLHandlerOptions {
  apollo: ApolloServer<GatewayContext>;
  maxBodyBytes: number;
  logger: Logger;
}

/**
 * `/graphql`, an identified route: the shell's door authenticated the caller first (nothing of the
 * request is parsed for an unknown caller); then the body is read within its limit, then Apollo
 * Server validates, authorizes, plans and executes.
 */
export function createGraphQLHandler(options: GraphQLHandlerOptions) {
  const { apollo, maxBodyBytes, logger } = options;
  return async ({ request, response, requestId, identity }: RouteCall<Identity>): Promise<void> => {
    if (!identity) return;
    const read = await readGraphQLBody(request, response, maxBodyBytes);
    if (!read) return;
    await executeApolloRequest(apollo, request, response, read.body, async () => ({
      identity,
      requestId,
      logger: logger.child({ requestId, subject: identity.subject, client: identity.client }),
    }));
  };
}

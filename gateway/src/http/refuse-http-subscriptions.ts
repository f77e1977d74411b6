import type { ApolloServerPlugin } from "@apollo/server";
import { BadRequestError } from "@compliance-graph/errors";
import type { GatewayContext } from "../gateway-context.js";

/**
 * Subscriptions are served over WebSocket (see subscriptions/); @apollo/gateway, which answers
 * HTTP, cannot execute them and would fail with an internal error. A subscription posted over
 * HTTP is told where to go instead, with HTTP 400.
 */
export const refuseHttpSubscriptions: ApolloServerPlugin<GatewayContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation }) {
        if (operation?.operation !== "subscription") return;
        throw new BadRequestError(
          "Subscriptions are served over WebSocket at /graphql or /graphql-ws (subprotocols graphql-transport-ws and graphql-ws), not over HTTP.",
          { http: { status: 400 } },
        );
      },
    };
  },
};

import type { IncomingMessage } from "node:http";
import { makeServer } from "graphql-ws";
import type { ExecutionArgs, ExecutionResult, FormattedExecutionResult, GraphQLError } from "graphql";
import type WebSocket from "ws";
import { maskError } from "@compliance-graph/errors";
import { keepSocketAlive } from "./keep-socket-alive.js";
import { SubscriptionConnection, type SubscriptionService } from "./subscription-connection.js";
import { SubscriptionEndedError, type SubscriptionMember } from "./subscription-member.js";
import { SubscriptionCloseCode } from "./subscription-close-code.js";

interface Extra {
  connection: SubscriptionConnection;
}

/**
 * The `graphql-transport-ws` subprotocol, spoken by the `graphql-ws` library's own server: the
 * gateway supplies authentication (`onConnect`), validation, authorization and planning
 * (`onSubscribe`), and a `subscribe` that joins the federated subscription instead of executing
 * against a local schema.
 */
export function createGraphQLTransportWsHandler(service: SubscriptionService) {
  const maskErrors = (errors: readonly GraphQLError[]) =>
    errors.flatMap((error) =>
      error.originalError instanceof SubscriptionEndedError ? error.originalError.errors : [maskError(error.toJSON(), error, { trustCodes: true })],
    );

  const server = makeServer<Record<string, unknown> | undefined, Extra>({
    connectionInitWaitTimeout: service.limits.connectionInitTimeoutMs,
    onConnect: async (ctx) => {
      // A refused socket is closed inside `authenticate`, with 4401 or 1013; graphql-ws's own
      // 4403 then finds it closing and sends nothing more.
      return ctx.extra.connection.authenticate(ctx.connectionParams);
    },
    onSubscribe: (ctx, _id, payload) => {
      const started = ctx.extra.connection.start(payload, Object.keys(ctx.subscriptions).length);
      if (Array.isArray(started)) return started;
      const planner = service.planner();
      return {
        schema: planner!.apiGraphQLSchema,
        document: started.document,
        operationName: started.operationName,
        contextValue: started.member,
      } satisfies ExecutionArgs;
    },
    // The member yields formatted results; `onNext` passes them through unchanged.
    subscribe: (args) => args.contextValue as SubscriptionMember as unknown as AsyncGenerator<ExecutionResult>,
    // Results are formatted (and masked) once per event for every socket; they are sent as they are.
    onNext: (_ctx, _id, _payload, _args, result) => result as FormattedExecutionResult,
    onError: (_ctx, _id, _payload, errors) => maskErrors(errors),
  });

  return (socket: WebSocket, request: IncomingMessage, address: string): void => {
    const connection = new SubscriptionConnection(socket, service, address);
    const stopKeepAlive = keepSocketAlive(socket, service.limits.keepAliveMs);
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            // A failed send means the socket is going away; its close event ends the subscriptions.
            socket.send(data, () => resolve());
          }),
        close: (code = 1000, reason = "") => connection.close(code, reason),
        onMessage: (callback) =>
          socket.on("message", (data) => {
            callback(String(data)).catch((error: unknown) => {
              service.logger.error({ err: error }, "graphql-transport-ws message failed");
              connection.close(SubscriptionCloseCode.InternalServerError, "Internal server error");
            });
          }),
      },
      { connection },
    );
    socket.once("close", (code, reason) => {
      stopKeepAlive();
      connection.dispose();
      void closed(code, String(reason));
    });
    socket.on("error", (error) => service.logger.debug({ err: error, url: request.url }, "subscription socket error"));
  };
}

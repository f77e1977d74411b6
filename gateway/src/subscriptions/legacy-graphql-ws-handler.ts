import type { GraphQLFormattedError } from "graphql";
import type WebSocket from "ws";
import { maskError } from "@compliance-graph/errors";
import type { OperationPayload } from "@compliance-graph/graphql-execution";
import { keepSocketAlive } from "./keep-socket-alive.js";
import { SubscriptionCloseCode } from "./subscription-close-code.js";
import { SubscriptionConnection, type SubscriptionService } from "./subscription-connection.js";
import { SubscriptionEndedError, type SubscriptionMember } from "./subscription-member.js";

/** The legacy `graphql-ws` subprotocol of subscriptions-transport-ws (its PROTOCOL.md). */
export const legacyGraphQLWsProtocol = "graphql-ws";

const MessageType = {
  ConnectionInit: "connection_init",
  ConnectionAck: "connection_ack",
  ConnectionError: "connection_error",
  KeepAlive: "ka",
  ConnectionTerminate: "connection_terminate",
  Start: "start",
  Data: "data",
  Error: "error",
  Complete: "complete",
  Stop: "stop",
} as const;

interface ClientMessage {
  type: string;
  id?: unknown;
  payload?: unknown;
}

function parseClientMessage(data: string): ClientMessage | undefined {
  try {
    const message = JSON.parse(data) as unknown;
    return message !== null && typeof message === "object" && typeof (message as ClientMessage).type === "string" ? (message as ClientMessage) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The legacy subprotocol, for clients still on subscriptions-transport-ws, with the same
 * authentication, limits and execution as graphql-transport-ws. `connection_init` carries
 * `{ bearer_token }`; a refused one gets `connection_error` and the socket is closed with 4401.
 * After `connection_ack` the server sends `ka` at the keep-alive interval. `start` runs a
 * subscription (a `start` reusing a running id replaces it, as the reference server does), `stop`
 * ends it without a reply, `data` carries results, `error` ends one subscription, `complete` ends
 * it normally, `connection_terminate` closes the socket.
 */
export function createLegacyGraphQLWsHandler(service: SubscriptionService) {
  return (socket: WebSocket, address: string): void => {
    const connection = new SubscriptionConnection(socket, service, address);
    const operations = new Map<string, SubscriptionMember | null>();
    let initReceived = false;
    let acknowledged = false;
    let stopKeepAlive: (() => void) | undefined;
    const send = (message: { type: string; id?: string; payload?: unknown }) =>
      new Promise<void>((resolve) => {
        if (socket.readyState !== socket.OPEN) return resolve();
        socket.send(JSON.stringify(message), () => resolve());
      });
    const initTimer = setTimeout(() => {
      if (!initReceived) connection.close(SubscriptionCloseCode.ConnectionInitialisationTimeout, "Connection initialisation timeout");
    }, service.limits.connectionInitTimeoutMs);

    const pump = async (id: string, member: SubscriptionMember) => {
      const current = () => operations.get(id) === member;
      try {
        for await (const result of member) {
          if (!current()) break;
          await send({ type: MessageType.Data, id, payload: result });
        }
        if (current()) await send({ type: MessageType.Complete, id });
      } catch (error) {
        const errors: GraphQLFormattedError[] = error instanceof SubscriptionEndedError ? error.errors : [maskError({ message: String(error) }, error)];
        if (current()) await send({ type: MessageType.Error, id, payload: errors });
      } finally {
        if (current()) operations.delete(id);
      }
    };

    const start = (id: string, payload: OperationPayload) => {
      void operations.get(id)?.return();
      operations.set(id, null);
      const started = connection.start(payload, operations.size);
      if (Array.isArray(started)) {
        operations.delete(id);
        void send({ type: MessageType.Error, id, payload: started.map((error) => maskError(error.toJSON(), error, { trustCodes: true })) });
        return;
      }
      operations.set(id, started.member);
      void pump(id, started.member);
    };

    const onMessage = async (data: string) => {
      const message = parseClientMessage(data);
      if (!message) return connection.close(SubscriptionCloseCode.BadRequest, "Invalid message received");
      switch (message.type) {
        case MessageType.ConnectionInit: {
          if (initReceived) return connection.close(SubscriptionCloseCode.TooManyInitialisationRequests, "Too many initialisation requests");
          initReceived = true;
          clearTimeout(initTimer);
          const accepted = await connection.authenticate(message.payload, (error) => {
            void send({ type: MessageType.ConnectionError, payload: { message: error.message, extensions: { code: error.extensions.code } } });
          });
          if (!accepted) return;
          acknowledged = true;
          await send({ type: MessageType.ConnectionAck });
          await send({ type: MessageType.KeepAlive });
          stopKeepAlive = keepSocketAlive(socket, service.limits.keepAliveMs, () => void send({ type: MessageType.KeepAlive }));
          return;
        }
        case MessageType.Start: {
          if (!acknowledged) return connection.close(SubscriptionCloseCode.Unauthorized, "Unauthorized");
          if (typeof message.id !== "string" || message.id.length === 0 || message.id.length > 128) {
            return connection.close(SubscriptionCloseCode.BadRequest, "A start message needs a string id");
          }
          return start(message.id, (message.payload ?? {}) as OperationPayload);
        }
        case MessageType.Stop: {
          if (typeof message.id !== "string") return;
          const member = operations.get(message.id);
          operations.delete(message.id);
          await member?.return();
          return;
        }
        case MessageType.ConnectionTerminate:
          return connection.close(SubscriptionCloseCode.NormalClosure, "Normal closure");
        default:
          return connection.close(SubscriptionCloseCode.BadRequest, `Unexpected message of type ${message.type}`);
      }
    };

    // One message at a time, in order: subscriptions-transport-ws sends `start` right behind
    // `connection_init`, without waiting for the acknowledgement.
    let processing = Promise.resolve();
    socket.on("message", (data) => {
      processing = processing
        .then(() => onMessage(String(data)))
        .catch((error: unknown) => {
          service.logger.error({ err: error }, "legacy graphql-ws message failed");
          connection.close(SubscriptionCloseCode.InternalServerError, "Internal server error");
        });
    });
    socket.once("close", () => {
      clearTimeout(initTimer);
      stopKeepAlive?.();
      connection.dispose();
      const running = [...operations.values()];
      operations.clear();
      for (const member of running) void member?.return();
    });
    socket.on("error", (error) => service.logger.debug({ err: error }, "subscription socket error"));
  };
}

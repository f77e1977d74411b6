/**
 * aopd's WebSocket endpoint (graphql-transport-ws, at `/graphql` of the subgraph's HTTP server).
 * Threat: a caller who reaches the subgraph's socket directly, bypassing the gateway, to read proof
 * events without the gateway's authentication and authorization. The `connection_init` payload must
 * carry the gateway's internal token (`{ "authorization": "Bearer <internal token>" }`), verified by
 * the subgraph's identity door that guards its HTTP routes; anything else closes the socket with 4401 before a
 * single operation is read. Each subscription is then checked against the schema's `@requiresRole`
 * with the token's roles, and its document against the HTTP query limits.
 */
import type { Server } from "node:http";
import { CloseCode } from "graphql-ws";
import { useServer } from "graphql-ws/use/ws";
import type { GraphQLError, GraphQLSchema } from "graphql";
import { WebSocketServer } from "ws";
import { maskError, UnauthenticatedError } from "@compliance-graph/errors";
import { RequiredRoles, type Identity, type IdentityDoor } from "@compliance-graph/identity";
import { requestIdFrom, type Logger } from "@compliance-graph/process-shell";
import { defaultQueryLimits, prepareOperation, type OperationCheck } from "@compliance-graph/graphql-execution";
import type { AopdServices } from "../graphql/aopd-context.js";
import type { AopdSubscriptionContext } from "../graphql/aopd-proofs-subscription.js";
import type { ProofSubscriptionHub } from "../events/proof-subscription-hub.js";

/**
 * Time a socket has to send `connection_init`. Only the gateway connects here, and it sends
 * `connection_init` at once, so the gateway's default for its clients is ample.
 */
const connectionInitTimeoutMs = 3_000; // 3 seconds

/** Largest message accepted (a larger one closes the socket with 1009), as the gateway's default. */
const maxMessageBytes = 65_536; // 64 KiB

export interface AopdSubscriptionServerOptions {
  httpServer: Server;
  schema: GraphQLSchema;
  services: AopdServices;
  /** The subgraph's identity door, the one its HTTP routes pass through. */
  identity: IdentityDoor;
  logger: Logger;
  /** The checks the subgraph's HTTP lane runs (`RunningSubgraphServer.operationChecks`): this lane runs the same. */
  operationChecks: readonly OperationCheck[];
  /** The replica's hub of proof events, from the event pump `startAopd` runs (`startProofEventPump`). */
  hub: ProofSubscriptionHub;
}

export interface RunningAopdSubscriptionServer {
  /** Closes the sockets; the hub and its pump are the caller's to stop. */
  close(): Promise<void>;
}

export function startAopdSubscriptionServer(options: AopdSubscriptionServerOptions): RunningAopdSubscriptionServer {
  const { schema, services, logger, hub } = options;
  const required = RequiredRoles.fromSchema(schema);
  const identities = new WeakMap<object, Identity>();
  const wss = new WebSocketServer({ server: options.httpServer, path: "/graphql", maxPayload: maxMessageBytes });
  const mask = (errors: readonly GraphQLError[]) => errors.map((error) => maskError(error.toJSON(), error));

  const server = useServer<Record<string, unknown> | undefined>(
    {
      schema,
      connectionInitWaitTimeout: connectionInitTimeoutMs,
      onConnect: async (ctx) => {
        try {
          const authorization = ctx.connectionParams?.authorization;
          identities.set(ctx, await options.identity.identify(typeof authorization === "string" ? { authorization } : {}));
          return true;
        } catch {
          ctx.extra.socket.close(CloseCode.Unauthorized, "Unauthorized");
          return false;
        }
      },
      onSubscribe: (ctx, _id, payload) => {
        const identity = identities.get(ctx);
        if (!identity) return [new UnauthenticatedError()];
        // The HTTP lane's checks, the same functions (the subgraph server's `operationChecks`).
        const prepared = prepareOperation(schema, payload, {
          limits: { ...defaultQueryLimits, suggestions: !services.config.production },
          onlySubscriptions: "This socket serves subscriptions only; send queries and mutations over HTTP.",
          roles: { required, granted: identity.roles },
          checks: options.operationChecks,
        });
        if (Array.isArray(prepared)) return prepared;
        const requestId = requestIdFrom(ctx.extra.request.headers);
        const contextValue: AopdSubscriptionContext = { ...services, identity, requestId, logger: logger.child({ requestId }), proofEvents: hub };
        return {
          schema,
          document: prepared.document,
          operationName: prepared.operationName,
          variableValues: prepared.variables,
          contextValue,
        };
      },
      onError: (_ctx, _id, _payload, errors) => mask(errors),
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: mask(result.errors) } : undefined),
    },
    wss,
  );

  return { close: async () => server.dispose() };
}

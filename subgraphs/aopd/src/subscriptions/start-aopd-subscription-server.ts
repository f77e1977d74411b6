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
import { GraphQLError, type GraphQLSchema } from "graphql";
import { WebSocketServer } from "ws";
import { ForbiddenError, maskError, UnauthenticatedError } from "@compliance-graph/errors";
import { findMissingRole, RequiredRoles, type Identity, type IdentityDoor } from "@compliance-graph/identity";
import { defaultQueryLimits, prepareOperation, requestIdFrom, type Logger } from "@compliance-graph/server-kit";
import type { Database } from "../database/open-database.js";
import type { AopdServices } from "../graphql/aopd-context.js";
import type { AopdSubscriptionContext } from "./aopd-proofs-subscription.js";
import { EventSequencer } from "../events/event-sequencer.js";
import { startProofEventListener } from "./proof-event-listener.js";
import { ProofSubscriptionHub } from "./proof-subscription-hub.js";

export interface AopdSubscriptionServerOptions {
  httpServer: Server;
  schema: GraphQLSchema;
  services: AopdServices;
  database: Database;
  /** The subgraph's identity door, the one its HTTP routes pass through. */
  identity: IdentityDoor;
  logger: Logger;
  /** Time a socket has to send `connection_init`. @default 3_000 // 3 seconds */
  connectionInitTimeoutMs?: number;
  /** Largest message accepted; a larger one closes the socket with 1009. @default 65_536 // 64 KiB */
  maxMessageBytes?: number;
  /** Events one subscriber may fall behind before it is ended. @default 1_000 // events */
  maxQueuedEvents?: number;
  /** The replica's hub, when others (the portal's event streams) share it; one is made otherwise. */
  hub?: ProofSubscriptionHub;
}

export interface RunningAopdSubscriptionServer {
  hub: ProofSubscriptionHub;
  /** Resolves once LISTEN is in place and the hub knows where the event log ends. */
  ready: Promise<void>;
  close(): Promise<void>;
}

export function startAopdSubscriptionServer(options: AopdSubscriptionServerOptions): RunningAopdSubscriptionServer {
  const { schema, services, logger } = options;
  const hub = options.hub ?? new ProofSubscriptionHub({ db: services.db, limits: services.limits, logger, ...(options.maxQueuedEvents ? { maxQueuedEvents: options.maxQueuedEvents } : {}) });
  const sequencer = new EventSequencer(services.db, logger, (numbered) => {
    for (const { change, kind, status, count } of numbered) services.metrics.proofEvents.inc({ change, kind, status }, count);
  });
  const listener = startProofEventListener({
    database: options.database,
    logger,
    onWrite: () => sequencer.request(),
    onEvents: (position) => hub.announced(position),
    // Back after an interruption: number and read what was written meanwhile.
    onListening: () => {
      sequencer.request();
      hub.refresh().catch((error: unknown) => logger.warn({ err: error }, "reading the end of the proof event log failed"));
    },
  });
  const required = RequiredRoles.fromSchema(schema);
  const identities = new WeakMap<object, Identity>();
  const wss = new WebSocketServer({ server: options.httpServer, path: "/graphql", maxPayload: options.maxMessageBytes ?? 65_536 });
  const mask = (errors: readonly GraphQLError[]) => errors.map((error) => maskError(error.toJSON(), error));

  const server = useServer<Record<string, unknown> | undefined>(
    {
      schema,
      connectionInitWaitTimeout: options.connectionInitTimeoutMs ?? 3_000,
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
        const prepared = prepareOperation(schema, payload, { ...defaultQueryLimits, suggestions: !services.config.production });
        if (Array.isArray(prepared)) return prepared;
        if (prepared.operation.operation !== "subscription") {
          return [new GraphQLError("This socket serves subscriptions only; send queries and mutations over HTTP.", { extensions: { code: "BAD_REQUEST" } })];
        }
        const missing = findMissingRole(schema, prepared.document, prepared.operation, required, identity.roles);
        if (missing) return [new ForbiddenError(missing.role, missing.coordinate)];
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

  return {
    hub,
    ready: listener.ready.then(() => hub.refresh()),
    close: async () => {
      hub.endAll();
      await sequencer.stop();
      await listener.close();
      await server.dispose();
    },
  };
}


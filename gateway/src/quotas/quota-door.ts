import type { ServerResponse } from "node:http";
import { HeaderMap, type ApolloServerPlugin } from "@apollo/server";
import { GraphQLError, type GraphQLErrorExtensions } from "graphql";
import { Registry } from "prom-client";
import { RateLimitedError } from "@compliance-graph/errors";
import type { Identity } from "@compliance-graph/identity";
import { sendGraphQLError, type Logger } from "@compliance-graph/process-shell";
import { operationCostOf, resolvedOperationOf, type CostLimits, type OperationChecks, type ResolvedOperation } from "@compliance-graph/graphql-execution";
import type { GatewayContext } from "../gateway-context.js";
import { ClientQuotas } from "./client-quotas.js";
import { LocalQuotaCounter } from "./quota-counter.js";
import { QuotaMetrics } from "./quota-metrics.js";
import type { QuotaSettings } from "./quota-settings.js";
import { SharedQuotaCounter } from "./shared-quota-counter.js";

/**
 * Where the quotas meet the lanes: every lane asks `admitRequest` once its caller is
 * authenticated and before it reads or plans the operation, and runs the cost check once the
 * operation is resolved, before it is planned: HTTP through `plugin` and `refuseRequest`, the
 * sockets through `admitRequest` and `laneFor`. The refusals are the same on every lane; HTTP adds
 * 429 and `Retry-After`.
 */
export interface QuotaDoor {
  /** One request (a POST, or a subscription started): `undefined` when admitted, else its refusal. */
  admitRequest(identity: Identity): RateLimitedError | undefined;
  /** Writes the 429 answer of a refused request and returns true; false (nothing written) when admitted. */
  refuseRequest(identity: Identity, response: ServerResponse): boolean;
  /** The HTTP lane's cost quota, after Apollo resolved the operation. */
  plugin: ApolloServerPlugin<GatewayContext>;
  /** A socket lane's operation checks with this caller's cost quota added. */
  laneFor<Lane extends Pick<OperationChecks, "checks">>(lane: Lane, identity: Identity): Lane;
  close(): Promise<void>;
}

export interface QuotaDoorOptions {
  settings: QuotaSettings;
  /** The gateway's cost limits, the very object its cost check uses, so each operation is measured once. */
  costLimits: CostLimits;
  /** Where `gateway_quota_*` are registered: the gateway's metrics. @default a registry of its own (a benchmark) */
  metrics?: { registry: Registry } | undefined;
  logger: Logger;
}

/** The refusal as a GraphQL error carrying its HTTP status (and `Retry-After`), which Apollo Server and `prepareOperation` both read. */
function withHttpStatus(error: GraphQLError): GraphQLError {
  const http =
    error instanceof RateLimitedError ? { status: 429, headers: new HeaderMap([["retry-after", String(error.retryAfterSeconds)]]) } : { status: 400 };
  // Apollo Server reads `headers` as a Map; GraphQL Yoga's typings (installed beside) declare a record.
  const extensions = { ...error.extensions, http } as unknown as GraphQLErrorExtensions;
  return new GraphQLError(error.message, { originalError: error.originalError ?? error, extensions });
}

export function createQuotaDoor(options: QuotaDoorOptions): QuotaDoor {
  const { settings, costLimits, logger } = options;
  const metrics = new QuotaMetrics(options.metrics?.registry ?? new Registry());
  const counter = settings.databaseUrl
    ? new SharedQuotaCounter({
        databaseUrl: settings.databaseUrl,
        replicas: settings.replicas,
        syncIntervalMs: settings.syncIntervalMs,
        logger,
        onSync: (outcome) => metrics.syncs.inc({ outcome }),
      })
    : new LocalQuotaCounter(settings.replicas);
  const quotas = new ClientQuotas(settings, counter, metrics);
  const checkCost = (resolved: ResolvedOperation, identity: Identity) => {
    if (!quotas.limitsCost) return;
    const refused = quotas.admitCost(identity, operationCostOf(resolved, costLimits));
    if (refused) throw withHttpStatus(refused);
  };
  return {
    admitRequest: (identity) => quotas.admitRequest(identity),
    refuseRequest(identity, response) {
      const refused = quotas.admitRequest(identity);
      if (!refused) return false;
      response.setHeader("retry-after", String(refused.retryAfterSeconds));
      sendGraphQLError(response, 429, refused);
      return true;
    },
    plugin: {
      async requestDidStart() {
        return {
          async didResolveOperation({ schema, document, operation, request, contextValue }) {
            if (operation) checkCost(resolvedOperationOf({ schema, document, operation, request }), contextValue.identity);
          },
        };
      },
    },
    laneFor: (lane, identity) => ({ ...lane, checks: [...lane.checks, (resolved: ResolvedOperation) => checkCost(resolved, identity)] }),
    close: () => quotas.close(),
  };
}

import { BadRequestError } from "@compliance-graph/errors";
import type { AopdContext } from "./aopd-context.js";
import type { ProofSubscriptionHub, ProofSubscriptionPayload } from "../events/proof-subscription-hub.js";

/** The context of an operation on aopd's WebSocket endpoint: a request context plus the replica's hub. */
export interface AopdSubscriptionContext extends AopdContext {
  proofEvents: ProofSubscriptionHub;
}

/**
 * `Subscription.aopdProofs`. Its `@requiresRole` is checked by the WebSocket endpoint before
 * `subscribe` runs (see `startAopdSubscriptionServer`), and by `enforceRequiredRoles` on `resolve`.
 */
export const aopdProofsSubscription = {
  subscribe: (
    _root: unknown,
    args: { filter?: unknown; after?: string | null },
    context: Partial<AopdSubscriptionContext>,
  ): Promise<AsyncIterableIterator<ProofSubscriptionPayload>> => {
    if (!context.proofEvents) throw webSocketOnly();
    return context.proofEvents.subscribe(args.filter, args.after);
  },
  resolve: (payload: ProofSubscriptionPayload | undefined): ProofSubscriptionPayload["aopdProofs"] => {
    // A subscription sent as an HTTP request is executed like a query, without an event.
    if (!payload) throw webSocketOnly();
    return payload.aopdProofs;
  },
};

function webSocketOnly(): BadRequestError {
  return new BadRequestError("Subscriptions are served over WebSocket (graphql-transport-ws), not over HTTP.");
}

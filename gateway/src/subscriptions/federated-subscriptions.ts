import type { GraphQLDataSource, ServiceMap } from "@apollo/gateway";
import type { GraphQLFormattedError } from "graphql";
import { identityKey, type Identity } from "@compliance-graph/identity";
import type { Logger } from "@compliance-graph/process-shell";
import type { GatewayMetrics } from "../gateway-metrics.js";
import { SharedSubscription } from "./shared-subscription.js";
import type { SubgraphSocketPool } from "./subgraph-socket-pool.js";
import { SubscriptionMember, type ConnectionBudget } from "./subscription-member.js";
import type { PlannedSubscription, SubscriptionPlanner } from "./subscription-planner.js";

export interface FederatedSubscriptionsOptions {
  pool: SubgraphSocketPool;
  /** The data source of a subgraph, as `@apollo/gateway`'s `buildService` makes it (identity propagation included). */
  buildService: (definition: { name: string; url: string }) => GraphQLDataSource;
  maxEventsInFlight: number;
  resumeWindowMs: number;
  logger: Logger;
  metrics?: GatewayMetrics | undefined;
}

/**
 * The running subscriptions of the gateway, grouped into shared upstream subscriptions: a client
 * subscription joins the one of the same supergraph, identity, operation and variables, or starts
 * it. Subscriptions of different identities never share anything.
 */
export class FederatedSubscriptions {
  readonly #options: FederatedSubscriptionsOptions;
  readonly #shared = new Map<string, SharedSubscription>();
  readonly #dataSources = new WeakMap<SubscriptionPlanner, ServiceMap>();

  constructor(options: FederatedSubscriptionsOptions) {
    this.#options = options;
  }

  /** Upstream subscriptions running, and client subscriptions served by them. */
  get stats(): { shared: number; upstreamConnections: number } {
    return { shared: this.#shared.size, upstreamConnections: this.#options.pool.size };
  }

  subscribe(planned: PlannedSubscription, identity: Identity, budget: ConnectionBudget): SubscriptionMember {
    const key = JSON.stringify([planned.planner.generation, identityKey(identity), planned.key, planned.variables]);
    let shared = this.#shared.get(key);
    // One that has moved past the cursor a newcomer asked for is left to its members (`joinable`).
    if (!shared || !shared.joinable) {
      const created: SharedSubscription = new SharedSubscription({
        planned,
        identity,
        pool: this.#options.pool,
        dataSources: this.#dataSourcesFor(planned.planner),
        maxEventsInFlight: this.#options.maxEventsInFlight,
        resumeWindowMs: this.#options.resumeWindowMs,
        metrics: this.#options.metrics,
        logger: this.#options.logger,
        onClosed: () => {
          if (this.#shared.get(key) === created) this.#shared.delete(key);
        },
      });
      this.#shared.set(key, created);
      shared = created;
    }
    const target = shared;
    const member = new SubscriptionMember(budget, (leaving) => target.remove(leaving));
    target.add(member);
    return member;
  }

  /** Ends every running subscription with these errors (a supergraph reload, a shutdown). */
  endAll(errors?: GraphQLFormattedError[]): void {
    for (const shared of [...this.#shared.values()]) shared.end(errors);
    this.#shared.clear();
  }

  #dataSourcesFor(planner: SubscriptionPlanner): ServiceMap {
    let map = this.#dataSources.get(planner);
    if (!map) {
      map = Object.create(null) as ServiceMap;
      for (const name of planner.subgraphNames()) {
        const url = planner.subgraphUrl(name);
        if (url) map[name] = this.#options.buildService({ name, url });
      }
      this.#dataSources.set(planner, map);
    }
    return map;
  }
}

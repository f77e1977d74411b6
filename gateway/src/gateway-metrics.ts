import { Counter, Gauge, Histogram } from "prom-client";
import { latencyBuckets, ServiceMetrics } from "@compliance-graph/process-shell";

/**
 * The gateway's metrics beside those of every deployable (HTTP, GraphQL operations): subgraph
 * fetches, WebSocket connections and subscriptions, and the checks of access tokens. Label values
 * come from fixed sets: subgraph names of the supergraph, protocols, outcomes, jose's error codes.
 */
export class GatewayMetrics extends ServiceMetrics {
  readonly subgraphFetches: Counter<"subgraph" | "outcome">;
  readonly subgraphFetchSeconds: Histogram<"subgraph">;
  readonly webSocketConnections: Gauge<"protocol">;
  readonly subscriptions: Gauge<"protocol">;
  readonly subscriptionEventsDelivered: Counter;
  readonly slowConsumerCloses: Counter<"protocol">;
  readonly subscriptionRefusals: Counter<"limit">;
  readonly tokenVerifications: Counter<"outcome">;
  readonly jwksFetches: Counter<"outcome">;
  readonly sharedRequests: Counter;
  readonly planExecutions: Counter<"executor">;
  readonly registrySupergraphFetches: Counter<"outcome">;
  readonly registrySupergraphVersion: Gauge;
  readonly usageOverflow: Counter;
  readonly usageFlushes: Counter<"outcome">;
  /** Open sockets and running subscriptions per subprotocol, read when scraped (set by the subscription server). */
  countSockets: () => Map<string, number> = () => new Map();
  countSubscriptions: () => Map<string, number> = () => new Map();

  constructor() {
    super("gateway");
    const registers = [this.registry];
    this.subgraphFetches = new Counter({
      name: "gateway_subgraph_fetches_total",
      help: "Fetches from subgraphs, by subgraph and outcome (ok, graphql_error, unavailable, error).",
      labelNames: ["subgraph", "outcome"],
      registers,
    });
    this.subgraphFetchSeconds = new Histogram({
      name: "gateway_subgraph_fetch_duration_seconds",
      help: "Time of a fetch from a subgraph, by subgraph.",
      labelNames: ["subgraph"],
      buckets: latencyBuckets,
      registers,
    });
    const fill = (gauge: Gauge<"protocol">, counts: Map<string, number>) => {
      gauge.reset();
      for (const [protocol, count] of counts) gauge.set({ protocol }, count);
    };
    const countSockets = () => this.countSockets();
    const countSubscriptions = () => this.countSubscriptions();
    this.webSocketConnections = new Gauge({
      name: "gateway_websocket_connections",
      help: "Open WebSocket connections, by subprotocol.",
      labelNames: ["protocol"],
      registers,
      collect() {
        fill(this, countSockets());
      },
    });
    this.subscriptions = new Gauge({
      name: "gateway_subscriptions",
      help: "Running client subscriptions, by subprotocol.",
      labelNames: ["protocol"],
      registers,
      collect() {
        fill(this, countSubscriptions());
      },
    });
    this.subscriptionEventsDelivered = new Counter({
      name: "gateway_subscription_events_delivered_total",
      help: "Subscription results queued for client sockets (one per subscriber per event).",
      registers,
    });
    this.slowConsumerCloses = new Counter({
      name: "gateway_slow_consumer_closes_total",
      help: "Sockets closed with 4413 because their unread results passed the limit, by subprotocol.",
      labelNames: ["protocol"],
      registers,
    });
    this.subscriptionRefusals = new Counter({
      name: "gateway_subscription_refusals_total",
      help: "Subscription sockets and subscriptions refused by a cap per subject, per client address or per replica, by the limit's name.",
      labelNames: ["limit"],
      registers,
    });
    this.tokenVerifications = new Counter({
      name: "gateway_token_verifications_total",
      help: "Access token checks, by outcome: ok, cached, unavailable (identity provider unreachable) or the refusal reason (jose's error code).",
      labelNames: ["outcome"],
      registers,
    });
    this.planExecutions = new Counter({
      name: "gateway_query_plan_executions_total",
      help: "Query plans executed, by executor: gateway (the gateway's own, for a query whose plan it keeps) or apollo (@apollo/gateway's: first requests, mutations, introspection, recorded traces).",
      labelNames: ["executor"],
      registers,
    });
    this.sharedRequests = new Counter({
      name: "gateway_shared_requests_total",
      help: "GraphQL requests answered with the execution of an identical request of the same identity already in flight (GATEWAY_SHARE_REQUESTS).",
      registers,
    });
    this.registrySupergraphFetches = new Counter({
      name: "gateway_registry_supergraph_fetches_total",
      help: "Polls of the schema registry's supergraph, by outcome: updated, unchanged, unreachable, refused (signature or hash did not verify), invalid (verified, yet not a supergraph the gateway can serve).",
      labelNames: ["outcome"],
      registers,
    });
    this.registrySupergraphVersion = new Gauge({
      name: "gateway_registry_supergraph_version",
      help: "The registry's version of the supergraph served (0 before one is loaded).",
      registers,
    });
    this.usageOverflow = new Counter({
      name: "gateway_usage_overflow_total",
      help: "Operations not recorded as usage because the distinct operations held until the next flush reached GATEWAY_USAGE_MAX_OPERATIONS (or a failed flush's counts found no room again).",
      registers,
    });
    this.usageFlushes = new Counter({
      name: "gateway_usage_flushes_total",
      help: "Sends of recorded usage to the schema registry, by outcome (ok, error).",
      labelNames: ["outcome"],
      registers,
    });
    this.jwksFetches = new Counter({
      name: "gateway_jwks_fetches_total",
      help: "Fetches of the identity provider's signing keys, by outcome (ok, error).",
      labelNames: ["outcome"],
      registers,
    });
  }

  /** A refusal reason as a label: jose's error codes as they are, anything else one value. */
  static refusalReason(reason: string): string {
    return /^ERR_[A-Z_]{1,60}$/.test(reason) ? reason : "ERR_CLAIMS_REFUSED";
  }
}

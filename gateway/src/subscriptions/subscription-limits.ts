/**
 * The bounds on what one subscription client can make the gateway hold: each one caps a resource
 * a client could otherwise grow at will (sockets waiting to authenticate, parse work, subscriptions,
 * unread results).
 */
export interface SubscriptionLimits {
  /** `SUBSCRIPTION_INIT_TIMEOUT_MS`: time a socket has to send `connection_init`. @default 3_000 // 3 seconds */
  connectionInitTimeoutMs: number;
  /** `SUBSCRIPTION_MAX_MESSAGE_BYTES`: largest client message; larger closes with 1009. @default 65_536 // 64 KiB */
  maxMessageBytes: number;
  /** `SUBSCRIPTION_MAX_PER_CONNECTION`: running subscriptions one socket may hold. @default 50 */
  maxSubscriptionsPerConnection: number;
  /**
   * `SUBSCRIPTION_MAX_BUFFERED_BYTES`: results (JSON bytes) waiting for one socket, queued or in
   * the socket's send buffer. Past it the socket is closed with 4413 (slow consumer) and what it
   * had not read is dropped. @default 1_048_576 // 1 MiB
   */
  maxBufferedBytes: number;
  /** `SUBSCRIPTION_KEEP_ALIVE_MS`: interval of pings (graphql-transport-ws) and `ka` (legacy). @default 12_000 // 12 seconds */
  keepAliveMs: number;
  /**
   * `SUBSCRIPTION_MAX_EVENTS_IN_FLIGHT`: events of one upstream subscription whose remaining plan
   * (fetches to other subgraphs) may run at once; past it the subscription ends with
   * LIMIT_EXCEEDED rather than queueing without bound.
   * @default 100 // events
   */
  maxEventsInFlight: number;
  /**
   * `SUBSCRIPTION_RESUME_WINDOW_MS`: how long the gateway keeps trying to continue a resumable
   * subscription (see `resumableOperation`) after the owning subgraph's connection dropped, before
   * it ends the client's subscription with SERVICE_UNAVAILABLE and the cursor to resume from.
   * @default 60_000 // 1 minute
   */
  resumeWindowMs: number;
  /**
   * `SUBSCRIPTION_MAX_CONNECTIONS`: sockets one gateway replica holds open, authenticated or not;
   * one more is closed with 1013 (try again later, another replica may have room). With
   * `maxBufferedBytes` it bounds the replica's memory for subscriptions (docs/subscriptions.md).
   * @default 1_000 // sockets
   */
  maxConnections: number;
  /**
   * `SUBSCRIPTION_MAX_SUBSCRIPTIONS`: subscriptions running on one gateway replica; one more is
   * refused with LIMIT_EXCEEDED. @default 10_000 // subscriptions
   */
  maxSubscriptions: number;
  /**
   * `SUBSCRIPTION_MAX_CONNECTIONS_PER_SUBJECT`: sockets of one token subject (`sub`) on one replica;
   * one more is closed with 4420 once its `connection_init` is verified. @default 20 // sockets
   */
  maxConnectionsPerSubject: number;
  /**
   * `SUBSCRIPTION_MAX_PER_SUBJECT`: subscriptions one subject runs on one replica, over all its
   * sockets; one more is refused with LIMIT_EXCEEDED. @default 200 // subscriptions
   */
  maxSubscriptionsPerSubject: number;
  /**
   * `SUBSCRIPTION_MAX_CONNECTIONS_PER_ADDRESS`: sockets from one client address (see
   * `GATEWAY_TRUSTED_PROXY_HOPS`) on one replica, before any token is read; one more is closed
   * with 4420. @default 50 // sockets
   */
  maxConnectionsPerAddress: number;
  /**
   * `SUBSCRIPTION_MAX_PER_ADDRESS`: subscriptions running from one client address on one replica;
   * one more is refused with LIMIT_EXCEEDED. @default 500 // subscriptions
   */
  maxSubscriptionsPerAddress: number;
}

export const defaultSubscriptionLimits: SubscriptionLimits = {
  connectionInitTimeoutMs: 3_000,
  maxMessageBytes: 65_536,
  maxSubscriptionsPerConnection: 50,
  maxBufferedBytes: 1_048_576,
  keepAliveMs: 12_000,
  maxEventsInFlight: 100,
  resumeWindowMs: 60_000,
  maxConnections: 1_000,
  maxSubscriptions: 10_000,
  maxConnectionsPerSubject: 20,
  maxSubscriptionsPerSubject: 200,
  maxConnectionsPerAddress: 50,
  maxSubscriptionsPerAddress: 500,
};

const envNames: Record<keyof SubscriptionLimits, string> = {
  connectionInitTimeoutMs: "SUBSCRIPTION_INIT_TIMEOUT_MS",
  maxMessageBytes: "SUBSCRIPTION_MAX_MESSAGE_BYTES",
  maxSubscriptionsPerConnection: "SUBSCRIPTION_MAX_PER_CONNECTION",
  maxBufferedBytes: "SUBSCRIPTION_MAX_BUFFERED_BYTES",
  keepAliveMs: "SUBSCRIPTION_KEEP_ALIVE_MS",
  maxEventsInFlight: "SUBSCRIPTION_MAX_EVENTS_IN_FLIGHT",
  resumeWindowMs: "SUBSCRIPTION_RESUME_WINDOW_MS",
  maxConnections: "SUBSCRIPTION_MAX_CONNECTIONS",
  maxSubscriptions: "SUBSCRIPTION_MAX_SUBSCRIPTIONS",
  maxConnectionsPerSubject: "SUBSCRIPTION_MAX_CONNECTIONS_PER_SUBJECT",
  maxSubscriptionsPerSubject: "SUBSCRIPTION_MAX_PER_SUBJECT",
  maxConnectionsPerAddress: "SUBSCRIPTION_MAX_CONNECTIONS_PER_ADDRESS",
  maxSubscriptionsPerAddress: "SUBSCRIPTION_MAX_PER_ADDRESS",
};

/** The limits set in the environment (`SUBSCRIPTION_*`, positive integers); unset ones keep their defaults. */
export function subscriptionLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<SubscriptionLimits> {
  const limits: Partial<SubscriptionLimits> = {};
  for (const [key, name] of Object.entries(envNames) as [keyof SubscriptionLimits, string][]) {
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer; got ${JSON.stringify(raw)}.`);
    limits[key] = value;
  }
  return limits;
}

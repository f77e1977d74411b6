/**
 * Why the gateway closed a subscription socket, as WebSocket close codes. Those graphql-ws defines
 * keep its numbers on both subprotocols; the others are the gateway's own, in the private range.
 * Whether graphql-ws's client reconnects by itself is noted: it treats 4401 as final and retries
 * the others.
 */
export enum SubscriptionCloseCode {
  /** `connection_init` without a valid `bearer_token` (legacy: after `connection_error`). Final. */
  Unauthorized = 4401,
  /** A malformed message, or `subscribe` before `connection_init` was acknowledged. Final. */
  BadRequest = 4400,
  /** No `connection_init` within the init timeout. Retried. */
  ConnectionInitialisationTimeout = 4408,
  /** A second `connection_init` on the same socket. Final. */
  TooManyInitialisationRequests = 4429,
  /**
   * The access token expired. Reconnect with a fresh token (graphql-ws retries with the
   * `connectionParams` it evaluates again). 440 is "login time-out".
   */
  TokenExpired = 4440,
  /**
   * The client read too slowly: more than the buffered-bytes limit of results waited for it. The
   * events it had not read are dropped with the connection; reconnect and re-read.
   */
  SlowConsumer = 4413,
  /**
   * Too many sockets from the client's address, or (after `connection_init`) of its token's
   * subject. Retried by graphql-ws with backoff; succeeds once one of the caller's own sockets has
   * closed, so a client should close one rather than retry in a loop. 420: "enhance your calm".
   */
  TooManyConnections = 4420,
  /**
   * A part the connection needs (the identity provider) is unreachable, or this gateway replica
   * holds as many sockets as it may (RFC 6455 "try again later"). Retried: another replica may
   * have room.
   */
  TryAgainLater = 1013,
  /** The client asked for neither subprotocol the gateway speaks. Final. */
  SubprotocolNotAcceptable = 4406,
  /** The gateway failed on its side while serving the socket. Retried. */
  InternalServerError = 4500,
  /** The client said goodbye (legacy `connection_terminate`); the gateway closes in kind. */
  NormalClosure = 1000,
  /** The gateway is shutting down (RFC 6455 "going away"). Retried. */
  GoingAway = 1001,
  /** A message larger than the limit (RFC 6455 "message too big", sent by `ws` itself). */
  MessageTooBig = 1009,
}

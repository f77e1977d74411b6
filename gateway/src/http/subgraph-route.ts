/**
 * One plain HTTP route of a subgraph, served by the gateway behind the same authentication as
 * `/graphql` (declared in `subgraph-routes.yaml`, read by `readSubgraphRoutes`). The caller's bearer
 * token is verified at the gateway and never forwarded; the subgraph receives an internal token
 * minted for it, as for a GraphQL call.
 */
export interface SubgraphRoute {
  /** The path served: exactly this one, or every path under it when it ends with `/`. */
  path: string;
  /**
   * The subgraph, by its name in the supergraph: the internal token's audience. The request goes to
   * the same path relative to the subgraph's routing URL (or `SUBGRAPH_<NAME>_URL`), so that a path
   * prefix in front of the subgraph (an ingress's) is kept.
   */
  subgraph: string;
  /** Methods served; any other is answered 405 with `allow` before authentication. @default every method */
  methods?: string[];
  /** Role the caller needs, checked at the gateway before anything reaches the subgraph (403). @default none: the subgraph checks roles itself */
  role?: string;
  /**
   * The body must be JSON of at most this many bytes, read and checked at the gateway before the
   * subgraph is called (400, 413). @default unset: the body streams through unread, of any size the subgraph accepts
   */
  jsonBodyMaxBytes?: number;
  /**
   * The shape of the gateway's own refusals (401, 403, 405, 503 ...), as the subgraph's route answers
   * its own: `graphql` is `{ "errors": [{ "message", "extensions": { "code" } }] }`, `reason` is
   * `{ "error": "<code in lower case>", "reason": "<sentence>" }`. @default "reason"
   */
  errorBody?: "graphql" | "reason";
  /** Longest wait for the subgraph's answer headers once the request is sent (`0`: no limit). @default 300 // seconds */
  headersTimeoutSeconds?: number;
  /** Longest pause between two chunks of the subgraph's answer (`0`: no limit: a client may read slowly). @default 0 // seconds */
  bodyTimeoutSeconds?: number;
  /**
   * Served to anyone, without a bearer token: for documents that are public by design (a
   * subgraph's published keys) or what anyone may hand in (a witness's cosignature). No token is
   * asked for or minted, and the request reaches the subgraph without identity, so the subgraph
   * serves it as a public route of its own. `methods` must be given: GET, HEAD, and POST only with
   * `jsonBodyMaxBytes` (at most 65,536), counted against `GATEWAY_PUBLIC_SUBMISSIONS_PER_MINUTE`
   * per client address; no `role`. @default false
   */
  public?: boolean;
}

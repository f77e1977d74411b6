import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { ForbiddenError, ServiceUnavailableError, UserInputError, type PublicError } from "@compliance-graph/errors";
import type { Identity, InternalTokenMinter } from "@compliance-graph/identity";
import {
  BodyTooLargeError,
  MalformedBodyError,
  readJsonBody,
  requestIdHeader,
  sendGraphQLError,
  sendJson,
  type Logger,
  type RouteCall,
  type RouteDefinition,
} from "@compliance-graph/process-shell";
import { Agent } from "undici";
import type { PublicSubmissionLimit } from "./public-submission-limit.js";
import type { SubgraphRoute } from "./subgraph-route.js";

/** The caller's request headers that travel on: what a plain HTTP exchange needs, nothing identifying the caller. */
const forwardedRequestHeaders = [
  "content-type",
  "user-agent",
  "accept",
  "accept-encoding",
  "accept-language",
  "if-none-match",
  "if-modified-since",
  "range",
  "cache-control",
];

/** Hop-by-hop headers (RFC 9110 section 7.6.1) and `set-cookie`: a subgraph's answer keeps the rest. */
const withheldAnswerHeaders = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "set-cookie"]);

export interface SubgraphRoutesOptions {
  routes: readonly SubgraphRoute[];
  /** A subgraph's routing URL as the gateway routes to it now (`SUBGRAPH_<NAME>_URL` or the supergraph's). */
  subgraphUrl: (name: string) => string | undefined;
  mint: InternalTokenMinter;
  logger: Logger;
  /** Bounds the bodies sent to public routes per client address (the only bound such a caller meets here). */
  publicSubmissions: PublicSubmissionLimit;
}

export interface SubgraphRoutes {
  /** One route of the gateway's table per declared route: its path, methods and door (public or identified) as declared. */
  routes: RouteDefinition<Identity>[];
  close(): Promise<void>;
}

/**
 * The subgraphs' plain HTTP routes behind the gateway (see `SubgraphRoute`; declared in
 * `subgraph-routes.yaml`).
 *
 * Threat: a subgraph's file routes read and write what `/graphql` guards (every proof's export, a
 * customer's wallet screenshot), and a caller who reaches them without the gateway's door would
 * take it all. So each route passes the same door as `/graphql`: the caller's bearer token is
 * verified here (401, or 503 while the identity provider is unreachable) and never forwarded; a
 * route's role is checked here before anything reaches the subgraph; the subgraph receives only the
 * internal token minted for it (audience: its name), so it checks roles exactly as for a GraphQL
 * call, and a caller who reaches it directly gets nothing. Only plain request headers travel on.
 * Bodies stream with backpressure both ways, so the gateway holds a socket buffer of a file, never
 * the file; a caller that goes away stops the subgraph's work too.
 *
 * A route declared `public` skips the door: it serves what is public by design, such as a
 * subgraph's published keys, which whoever verifies our statements must fetch without our token,
 * or takes what anyone may give, such as a witness's cosignature. Such a request reaches the
 * subgraph without any identity (no internal token is minted for it), so it can reach nothing the
 * door guards; a body it sends is JSON of a declared size, limited per client address.
 */
export function forwardSubgraphRoutes(options: SubgraphRoutesOptions): SubgraphRoutes {
  const { mint, logger } = options;
  const served = options.routes.map((route) => ({
    route,
    agent: new Agent({ headersTimeout: (route.headersTimeoutSeconds ?? 300) * 1_000, bodyTimeout: (route.bodyTimeoutSeconds ?? 0) * 1_000 }),
  }));
  /** A refusal in the route's declared body shape. */
  const refusalOf = (route: SubgraphRoute) => (response: ServerResponse, status: number, error: PublicError) => {
    if (route.errorBody === "graphql") sendGraphQLError(response, status, error);
    else sendJson(response, status, { error: String(error.extensions.code).toLowerCase(), reason: error.message });
  };

  const serve = async (route: SubgraphRoute, agent: Agent, { request, response, requestId, identity }: RouteCall<Identity>): Promise<void> => {
    const refuse = (status: number, error: PublicError) => refusalOf(route)(response, status, error);
    if (identity && route.role !== undefined && !identity.roles.includes(route.role)) {
      refuse(403, new ForbiddenError(route.role, route.path));
      return;
    }
    const takesBody = request.method !== "GET" && request.method !== "HEAD";
    if (route.public && takesBody) {
      const limited = options.publicSubmissions(request);
      if (limited) {
        response.setHeader("retry-after", String(limited.retryAfterSeconds));
        refuse(429, limited);
        return;
      }
    }
    let body: Buffer | IncomingMessage | undefined = takesBody ? request : undefined;
    if (route.jsonBodyMaxBytes !== undefined) {
      try {
        const parsed = await readJsonBody(request, route.jsonBodyMaxBytes);
        body = Buffer.from(parsed === undefined ? "" : JSON.stringify(parsed));
      } catch (error) {
        if (!(error instanceof BodyTooLargeError || error instanceof MalformedBodyError)) throw error;
        refuse(error instanceof BodyTooLargeError ? 413 : 400, new UserInputError("body", error.message));
        return;
      }
    }
    const unavailable = new ServiceUnavailableError(`${route.subgraph} service`);
    const routingUrl = options.subgraphUrl(route.subgraph);
    if (!routingUrl) {
      refuse(503, unavailable);
      return;
    }
    if (hasDotSegment(request.url ?? route.path)) {
      refuse(400, new UserInputError("path", "A path segment may not be '.' or '..' (nor their percent-encoded forms): give the resource's path as it is."));
      return;
    }
    // Relative to the routing URL, so that a path prefix in front of the subgraph (an ingress's) is kept.
    const target = new URL((request.url ?? route.path).slice(1), routingUrl);
    const headers: Record<string, string> = {};
    for (const name of forwardedRequestHeaders) {
      const value = request.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    if (route.jsonBodyMaxBytes !== undefined) headers["content-type"] = "application/json";
    else if (typeof request.headers["content-length"] === "string") headers["content-length"] = request.headers["content-length"];
    const prior = request.headers["x-forwarded-for"];
    const socketAddress = request.socket.remoteAddress ?? "unknown";
    headers["x-forwarded-for"] = typeof prior === "string" && prior.trim() !== "" ? `${prior}, ${socketAddress}` : socketAddress;
    if (identity) headers.authorization = `Bearer ${await mint(identity, route.subgraph)}`;
    headers[requestIdHeader] = requestId;
    const abort = new AbortController();
    // The caller going away stops the subgraph's work too: its response is closed, its cursor with it.
    response.on("close", () => abort.abort());
    let answer;
    try {
      answer = await agent.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: (request.method ?? "GET") as "GET",
        headers,
        body,
        signal: abort.signal,
      });
    } catch (error) {
      if (abort.signal.aborted) return;
      logger.warn({ err: error, requestId, subgraph: route.subgraph, route: route.path }, "subgraph unreachable for a subgraph route");
      if (!response.headersSent) refuse(503, unavailable);
      else response.destroy();
      return;
    }
    const answerHeaders: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !withheldAnswerHeaders.has(name)) answerHeaders[name] = value;
    response.writeHead(answer.statusCode, answerHeaders);
    // An event stream's or a download's first bytes must not wait for more.
    response.flushHeaders();
    try {
      await pipeline(answer.body, response);
    } catch (error) {
      // A file that broke off at the subgraph (or a caller that left) ends the connection, never
      // the body, so that the caller sees a truncated transfer rather than a complete-looking one.
      if (!abort.signal.aborted) logger.warn({ err: error, requestId, route: route.path }, "subgraph route answer broke off");
      response.destroy();
    }
  };

  return {
    routes: served.map(({ route, agent }) => ({
      // A path ending with / serves everything under it.
      path: route.path.endsWith("/") ? `${route.path}*` : route.path,
      ...(route.methods ? { methods: route.methods } : {}),
      access: route.public ? "public" : "identified",
      refuse: refusalOf(route),
      handle: (call: RouteCall<Identity>) => serve(route, agent, call),
    })),
    close: async () => {
      await Promise.all(served.map(({ agent }) => agent.close()));
    },
  };
}

/**
 * Whether a request's path has a dot segment. The URL parser resolves `..`, `%2e%2e` and `..\` when
 * the target is built, so `/aopd/media/../../graphql` would leave the route's prefix and reach any
 * path of the subgraph with the caller's identity, past the gateway's own checks.
 */
function hasDotSegment(url: string): boolean {
  const path = url.replace(/[?#].*$/s, "");
  return path.split(/[\\/]/).some((segment) => {
    const decoded = segment.toLowerCase().replaceAll("%2e", ".");
    return decoded === "." || decoded === "..";
  });
}

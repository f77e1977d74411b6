import type { IncomingMessage, ServerResponse } from "node:http";
import { UserInputError, type PublicError } from "@compliance-graph/errors";
import { sendGraphQLError } from "./send-json.js";

/** Who may call a route: anyone, or only a caller the deployable's identity door admits. */
export type RouteAccess = "public" | "identified";

/** One request as a route's handler gets it: the path parsed once, and the caller of an identified route. */
export interface RouteCall<Identity> {
  request: IncomingMessage;
  response: ServerResponse;
  requestId: string;
  /** The path, without the query. */
  path: string;
  /** What the pattern's `*` matched: the path after its prefix (`/aopd/media/*` on `/aopd/media/7`: `7`); empty for an exact path. */
  rest: string;
  /** The query's parameters. */
  query: URLSearchParams;
  /** The caller the door admitted; undefined on a public route. */
  identity: Identity | undefined;
}

/** Writes a refusal of the shell (the door's 401, a 405) in the route's own body shape. */
export type RouteRefusal = (response: ServerResponse, status: number, error: PublicError) => void;

/** One route of a deployable: its methods, its path, who may call it, and what answers it. */
export interface RouteDefinition<Identity = unknown> {
  /** An exact path (`/graphql`), or every path under a prefix (`/aopd/media/*`: `/aopd/media/` and below). */
  path: string;
  /** The methods served; another is refused with 405 and `Allow` before the door. @default every method: the handler decides */
  methods?: readonly string[];
  access: RouteAccess;
  /** How the shell's refusals (401, 405) read on this route. @default GraphQL errors (`{ errors: [{ message, extensions }] }`) */
  refuse?: RouteRefusal;
  handle(call: RouteCall<Identity>): Promise<void> | void;
}

/**
 * The deployable's one identity door: resolves to the caller, or to undefined once it has sent the
 * refusal through `refuse` (the route's own shape). The shell asks it for every identified route,
 * so a route cannot forget it.
 */
export type RouteDoor<Identity> = (
  request: IncomingMessage,
  response: ServerResponse,
  requestId: string,
  refuse: (status: number, error: PublicError) => void,
) => Promise<Identity | undefined>;

/**
 * A request's path and query, parsed once for every route. The path is taken as sent, not
 * normalized ("..", "%2F" stay): a route judges its own segments.
 */
export function requestTargetOf(request: IncomingMessage): { path: string; query: URLSearchParams } {
  const target = request.url ?? "/";
  const queryAt = target.indexOf("?");
  return { path: queryAt < 0 ? target : target.slice(0, queryAt), query: new URLSearchParams(queryAt < 0 ? "" : target.slice(queryAt + 1)) };
}

/** The metric label and span name of a route: its pattern without `*`, never the request's own path (which may carry a credential). */
export function routeLabelOf(route: Pick<RouteDefinition, "path">): string {
  return route.path.endsWith("/*") ? route.path.slice(0, -2) : route.path;
}

/**
 * A deployable's routes as one table: an exact path wins, else the longest prefix, so the order of
 * the routes does not matter. Checked when built: two routes of one pattern, or an identified route
 * without a door, stop the start with an error naming the path.
 */
export class RouteTable<Identity> {
  readonly #exact = new Map<string, RouteDefinition<Identity>>();
  /** Prefixes, longest first. */
  readonly #prefixes: { prefix: string; route: RouteDefinition<Identity> }[] = [];
  readonly #door: RouteDoor<Identity> | undefined;

  constructor(routes: readonly RouteDefinition<Identity>[], door?: RouteDoor<Identity>) {
    this.#door = door;
    for (const route of routes) {
      if (!/^\/[^?#]*$/.test(route.path) || (route.path.includes("*") && !/^\/([^*]*\/)?\*$/.test(route.path))) {
        throw new Error(`A route's path must be absolute, with at most a final "/*"; got ${JSON.stringify(route.path)}.`);
      }
      if (route.access === "identified" && !door) throw new Error(`The route ${route.path} is identified, but the deployable has no identity door.`);
      const taken = route.path.endsWith("*") ? this.#prefixes.some(({ route: other }) => other.path === route.path) : this.#exact.has(route.path);
      if (taken) throw new Error(`Two routes have the path ${route.path}; each request must have one route.`);
      if (route.path.endsWith("*")) this.#prefixes.push({ prefix: route.path.slice(0, -1), route });
      else this.#exact.set(route.path, route);
    }
    this.#prefixes.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** The route of a path and what its `*` matched; undefined when no route has it. */
  match(path: string): { route: RouteDefinition<Identity>; rest: string } | undefined {
    const exact = this.#exact.get(path);
    if (exact) return { route: exact, rest: "" };
    const found = this.#prefixes.find(({ prefix }) => path.startsWith(prefix));
    return found && { route: found.route, rest: path.slice(found.prefix.length) };
  }

  /** Answers a request when a route has its path; false when none has (an ingress sends it elsewhere). */
  async answer(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<boolean> {
    const { path, query } = requestTargetOf(request);
    const match = this.match(path);
    if (!match) return false;
    await this.serve(match, request, response, requestId, path, query);
    return true;
  }

  /** Answers a request of a matched route: its methods, then the door for an identified route, then the handler. */
  async serve(
    match: { route: RouteDefinition<Identity>; rest: string },
    request: IncomingMessage,
    response: ServerResponse,
    requestId: string,
    path: string,
    query: URLSearchParams,
  ): Promise<void> {
    const { route } = match;
    const refuse = (status: number, error: PublicError) => (route.refuse ?? graphqlRefusal)(response, status, error);
    if (route.methods && !route.methods.includes(request.method ?? "")) {
      response.setHeader("allow", route.methods.join(", "));
      return refuse(
        405,
        new UserInputError("method", `${request.method ?? "This method"} is not allowed at ${routeLabelOf(route)}; use ${route.methods.join(" or ")}.`),
      );
    }
    let identity: Identity | undefined;
    if (route.access === "identified") {
      identity = await this.#door!(request, response, requestId, refuse);
      if (identity === undefined) return;
    }
    await route.handle({ request, response, requestId, path, rest: match.rest, query, identity });
  }
}

const graphqlRefusal: RouteRefusal = (response, status, error) => sendGraphQLError(response, status, error);

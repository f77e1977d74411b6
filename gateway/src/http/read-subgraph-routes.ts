import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import type { SubgraphRoute } from "./subgraph-route.js";

const fields = new Set(["path", "subgraph", "methods", "role", "jsonBodyMaxBytes", "errorBody", "headersTimeoutSeconds", "bodyTimeoutSeconds", "public"]);
const methodNames = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/**
 * The gateway's own paths: a subgraph route there would shadow them or be shadowed. Of
 * `/.well-known/`, only the gateway's internal key set (start-gateway.ts, `internalJwksPath`): a
 * subgraph may publish its own well-known documents (aopd's receipt keys).
 */
const reservedPaths = ["/graphql", "/health/", "/metrics", "/.well-known/internal-jwks.json"];
/** A public route reads, or takes a small JSON document (POST with `jsonBodyMaxBytes`): it never streams a body from an unknown caller. */
const publicMethods = new Set(["GET", "HEAD", "POST"]);
/** The largest body a public route may declare: what anyone may send without a token. */
const publicBodyMaxBytes = 65_536;

/**
 * Reads `subgraph-routes.yaml` (`SUBGRAPH_ROUTES_PATH`): a `routes:` list of `SubgraphRoute`s. A
 * file that is wrong stops the gateway at start with an error naming the entry, the field and what
 * is allowed: a typo must not leave a route unguarded or missing in silence.
 */
export async function readSubgraphRoutes(routesPath: string): Promise<SubgraphRoute[]> {
  const path = resolve(routesPath);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new Error(`${path}: the subgraph routes cannot be read (${(error as Error).message}); set SUBGRAPH_ROUTES_PATH to the file.`);
  }
  return parseSubgraphRoutes(parseYaml(text) as unknown, path);
}

/** Checks a parsed `subgraph-routes.yaml`; `source` names it in errors. */
export function parseSubgraphRoutes(raw: unknown, source: string): SubgraphRoute[] {
  const fail = (where: string, message: string): never => {
    throw new Error(`${source}: ${where} ${message}`);
  };
  if (raw === null || typeof raw !== "object" || !Array.isArray((raw as { routes?: unknown }).routes))
    fail("routes", "must be a list of routes (an empty list for none).");
  const entries = (raw as { routes: unknown[] }).routes;
  const routes = entries.map((entry, index): SubgraphRoute => {
    const at = `routes[${index}]`;
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return fail(at, "must be a mapping with path and subgraph.");
    const value = entry as Record<string, unknown>;
    for (const key of Object.keys(value)) if (!fields.has(key)) fail(`${at}.${key}`, `is not a field of a route; allowed: ${[...fields].join(", ")}.`);
    const { path, subgraph, methods, role, jsonBodyMaxBytes, errorBody, headersTimeoutSeconds, bodyTimeoutSeconds } = value;
    const isPublic = value.public;
    if (typeof path !== "string" || !/^\/[A-Za-z0-9._~\-/]*$/.test(path) || path.includes("//") || path === "/") {
      fail(`${at}.path`, "must be an absolute path other than / (letters, digits, . _ ~ - /), ending with / to serve everything under it.");
    }
    const routePath = path as string;
    if (reservedPaths.some((reserved) => routePath === reserved || routePath.startsWith(reserved) || reserved.startsWith(routePath))) {
      fail(`${at}.path`, `must not overlap the gateway's own paths (${reservedPaths.join(", ")}).`);
    }
    if (typeof subgraph !== "string" || !/^[a-z][a-z0-9_]*$/.test(subgraph))
      fail(`${at}.subgraph`, "must name a subgraph of supergraph.yaml (lower case letters, digits, _).");
    const route: SubgraphRoute = { path: routePath, subgraph: subgraph as string };
    if (methods !== undefined) {
      if (!Array.isArray(methods) || methods.length === 0 || methods.some((method) => typeof method !== "string" || !methodNames.has(method))) {
        fail(`${at}.methods`, `must be a non-empty list of ${[...methodNames].join(", ")}.`);
      }
      route.methods = methods as string[];
    }
    if (role !== undefined) {
      if (typeof role !== "string" || role.trim() === "") fail(`${at}.role`, "must be a role name such as proofs:export.");
      route.role = role as string;
    }
    if (jsonBodyMaxBytes !== undefined) route.jsonBodyMaxBytes = whole(jsonBodyMaxBytes, `${at}.jsonBodyMaxBytes`, 1, fail);
    if (errorBody !== undefined) {
      if (errorBody !== "graphql" && errorBody !== "reason") fail(`${at}.errorBody`, "must be graphql or reason.");
      route.errorBody = errorBody as "graphql" | "reason";
    }
    if (headersTimeoutSeconds !== undefined) route.headersTimeoutSeconds = whole(headersTimeoutSeconds, `${at}.headersTimeoutSeconds`, 0, fail);
    if (bodyTimeoutSeconds !== undefined) route.bodyTimeoutSeconds = whole(bodyTimeoutSeconds, `${at}.bodyTimeoutSeconds`, 0, fail);
    if (isPublic !== undefined) {
      if (typeof isPublic !== "boolean") fail(`${at}.public`, "must be true or false.");
      if (isPublic === true) {
        // A public route has no caller: nothing to check a role of, and a body it takes is small, whole and JSON.
        if (route.methods === undefined || route.methods.some((method) => !publicMethods.has(method)))
          fail(`${at}.methods`, "of a public route must be given and only GET, HEAD or POST.");
        if (route.role !== undefined) fail(`${at}.role`, "cannot be set on a public route: it has no caller to check a role of.");
        const takesBody = route.methods?.includes("POST") === true;
        if (takesBody && (route.jsonBodyMaxBytes === undefined || route.jsonBodyMaxBytes > publicBodyMaxBytes))
          fail(`${at}.jsonBodyMaxBytes`, `must be given, at most ${publicBodyMaxBytes}, on a public route that takes POST: anyone may send its body.`);
        if (!takesBody && route.jsonBodyMaxBytes !== undefined)
          fail(`${at}.jsonBodyMaxBytes`, "cannot be set on a public route without POST: it takes no body.");
        route.public = true;
      }
    }
    return route;
  });
  routes.forEach((route, index) => {
    const other = routes.findIndex((earlier, earlierIndex) => earlierIndex < index && routesOverlap(earlier.path, route.path));
    if (other !== -1) fail(`routes[${index}].path`, `overlaps routes[${other}].path (${routes[other]?.path}); each request must have one route.`);
  });
  return routes;
}

function whole(value: unknown, where: string, minimum: number, fail: (where: string, message: string) => never): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < minimum) fail(where, `must be a whole number of at least ${minimum}.`);
  return value as number;
}

/** Whether two route paths could both serve one request. */
export function routesOverlap(a: string, b: string): boolean {
  return a === b || (a.endsWith("/") && b.startsWith(a)) || (b.endsWith("/") && a.startsWith(b));
}

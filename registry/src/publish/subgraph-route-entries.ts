import { RegistryError } from "../registry-error.js";

/** The registry's own paths on the gateway, which no subgraph's route may take. */
const reservedPrefixes = ["/registry/", "/graphql", "/health/", "/metrics", "/.well-known/internal-jwks.json", "/.well-known/registry-keys.json"];

/**
 * A subgraph's HTTP routes as published (`--routes FILE`, entries of `subgraph-routes.yaml`'s
 * shape). The registry checks what it can judge without the gateway: a list of entries with a path,
 * each of this subgraph (`subgraph` filled in when absent), none on the gateway's own paths, none
 * overlapping another subgraph's. The gateway reads the fields themselves with the same parser as
 * the file and refuses a supergraph whose routes it cannot read.
 */
export function subgraphRouteEntries(raw: unknown, subgraph: string, others: readonly { subgraph?: unknown; path?: unknown }[]): Record<string, unknown>[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new RegistryError("invalid_input", "routes must be a list of route entries (subgraph-routes.yaml's routes).");
  return raw.map((entry: unknown, index) => {
    const at = `routes[${index}]`;
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) throw new RegistryError("invalid_input", `${at} must be a mapping with a path.`);
    const route = { ...(entry as Record<string, unknown>) };
    if (route.subgraph === undefined) route.subgraph = subgraph;
    if (route.subgraph !== subgraph) throw new RegistryError("invalid_input", `${at}.subgraph must be ${subgraph}: a subgraph publishes only its own routes.`);
    const path = route.path;
    if (typeof path !== "string" || !/^\/[A-Za-z0-9._~\-/]*$/.test(path) || path === "/")
      throw new RegistryError("invalid_input", `${at}.path must be an absolute path other than / (letters, digits, . _ ~ - /).`);
    if (reservedPrefixes.some((reserved) => path.startsWith(reserved) || reserved.startsWith(path)))
      throw new RegistryError("invalid_input", `${at}.path must not overlap the gateway's own paths (${reservedPrefixes.join(", ")}).`);
    const taken = others.find((other) => other.subgraph !== subgraph && typeof other.path === "string" && overlaps(other.path, path));
    if (taken) throw new RegistryError("invalid_input", `${at}.path overlaps ${String(taken.path)} of the subgraph ${String(taken.subgraph)}.`);
    return route;
  });
}

function overlaps(a: string, b: string): boolean {
  return a === b || (a.endsWith("/") && b.startsWith(a)) || (b.endsWith("/") && a.startsWith(b));
}

import type { Identity } from "@compliance-graph/identity";
import { RouteTable, sendJson, type RouteDefinition, type RouteDoor } from "@compliance-graph/process-shell";
import { forwardSubgraphRoutes, type SubgraphRoutes, type SubgraphRoutesOptions } from "./forward-subgraph-routes.js";
import { routesOverlap } from "./read-subgraph-routes.js";
import type { SubgraphRoute } from "./subgraph-route.js";

export interface SwitchableSubgraphRoutes {
  /** One route of the gateway's table: every path no other route of the gateway has. */
  route: RouteDefinition<Identity>;
  /** Serves these routes from the next request on; requests under way finish on the routes they started with. */
  replace(routes: readonly SubgraphRoute[]): void;
  close(): Promise<void>;
}

/**
 * The subgraph routes published with the supergraph (the schema registry's), which change while
 * the gateway runs. They are served exactly as `subgraph-routes.yaml`'s (`forwardSubgraphRoutes`:
 * the same door, role check, limits and streaming) through a table of their own, swapped whole
 * when a new version arrives; the gateway's table holds one catch-all route that asks it, so the
 * gateway's own paths (`/graphql`, `/health/`, the ingress of `npm start`) always win.
 */
export function switchableSubgraphRoutes(
  options: Omit<SubgraphRoutesOptions, "routes"> & { routes: readonly SubgraphRoute[]; door: RouteDoor<Identity> },
): SwitchableSubgraphRoutes {
  const build = (routes: readonly SubgraphRoute[]) => {
    const forwarded: SubgraphRoutes = forwardSubgraphRoutes({ ...options, routes });
    return { forwarded, table: new RouteTable(forwarded.routes, options.door) };
  };
  let current = build(options.routes);
  return {
    route: {
      path: "/*",
      access: "public",
      handle: async ({ request, response, requestId, path, query }) => {
        const { table } = current;
        const match = table.match(path);
        if (!match) return sendJson(response, 404, { error: "not found" });
        await table.serve(match, request, response, requestId, path, query);
      },
    },
    replace(routes) {
      const previous = current;
      current = build(routes);
      // Closing an agent lets its requests under way finish.
      void previous.forwarded.close();
    },
    close: () => current.forwarded.close(),
  };
}

/**
 * The routes a gateway with the registry serves: the routes file's (the platform's own, such as
 * the registry's door; none without a file) and the published ones. A published route that
 * overlaps one of the file's is left out (`skipped` hears of it): a team cannot take over a path
 * the platform serves.
 */
export function withPublishedRoutes(
  fileRoutes: readonly SubgraphRoute[],
  published: readonly SubgraphRoute[],
  skipped: (route: SubgraphRoute) => void,
): SubgraphRoute[] {
  const kept = published.filter((route) => {
    const taken = fileRoutes.some((fileRoute) => routesOverlap(fileRoute.path, route.path));
    if (taken) skipped(route);
    return !taken;
  });
  return [...fileRoutes, ...kept];
}

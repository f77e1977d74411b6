import type { Identity } from "@compliance-graph/identity";
import type { RouteDoor } from "@compliance-graph/process-shell";
import type { ServedRoles } from "../authorization/served-roles.js";
import { forwardSubgraphRoutes, type SubgraphRoutes, type SubgraphRoutesOptions } from "./forward-subgraph-routes.js";
import type { SubgraphRoute } from "./subgraph-route.js";
import { switchableSubgraphRoutes, withPublishedRoutes } from "./switchable-subgraph-routes.js";

/** The routes a registry publishes with its supergraph, and word of each new set. */
export interface PublishedRoutes {
  routes(): readonly SubgraphRoute[];
  onRoutes(listener: (routes: SubgraphRoute[]) => void): void;
}

/**
 * The subgraph routes a gateway serves: the routes file's (and the registry's door) alone, or,
 * with the registry as its source, those beside the published ones, swapped whole as new versions
 * arrive. Either way the roles they name are served roles (`ServedRoles`), kept as the routes change.
 */
export function servedSubgraphRoutes(
  options: Omit<SubgraphRoutesOptions, "routes"> & {
    fileRoutes: readonly SubgraphRoute[];
    published: PublishedRoutes | undefined;
    door: RouteDoor<Identity>;
    servedRoles: Pick<ServedRoles, "setRouteRoles">;
  },
): SubgraphRoutes {
  const { fileRoutes, published, servedRoles, logger } = options;
  if (!published) {
    servedRoles.setRouteRoles(fileRoutes.map((route) => route.role));
    return forwardSubgraphRoutes({ ...options, routes: fileRoutes });
  }
  const served = (routes: readonly SubgraphRoute[]) =>
    withPublishedRoutes(fileRoutes, routes, (route) =>
      logger.warn({ path: route.path, subgraph: route.subgraph }, "a published route overlaps a route of the routes file; the file's is served"),
    );
  const initialRoutes = served(published.routes());
  const switchable = switchableSubgraphRoutes({ ...options, routes: initialRoutes });
  servedRoles.setRouteRoles(initialRoutes.map((route) => route.role));
  published.onRoutes((routes) => {
    const next = served(routes);
    servedRoles.setRouteRoles(next.map((route) => route.role));
    switchable.replace(next);
  });
  return { routes: [switchable.route], close: () => switchable.close() };
}

/** The first path segments a deployable serves; any other path is `other`. */
const knownRoutes = ["/graphql", "/graphql-ws", "/health/live", "/health/ready", "/metrics", "/aopp/callback", "/portal/api", "/portal", "/aopd/media", "/auth", "/supergraph"];

/**
 * A request path as a route name from a fixed list: what metrics label and spans name a request
 * by. Never the raw path, which may carry a credential (`/portal/<credential>`) and is unbounded.
 */
export function routeOfPath(path: string): string {
  for (const route of knownRoutes) if (path === route || path.startsWith(`${route}/`)) return route;
  return "other";
}

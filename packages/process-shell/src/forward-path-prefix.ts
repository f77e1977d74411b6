import { forwardRequest } from "./forward-request.js";
import type { RouteDefinition } from "./route-table.js";

/**
 * A public route that forwards every request under `pathPrefix` (`/portal/`) to another server,
 * unchanged: what an ingress does when one base URL fronts several deployables (see `forwardRequest`).
 */
export function forwardPathPrefix(pathPrefix: string, target: string): RouteDefinition<never> {
  const base = new URL(target);
  return { path: `${pathPrefix.replace(/\/?$/, "/")}*`, access: "public", handle: ({ request, response }) => forwardRequest(request, response, base) };
}

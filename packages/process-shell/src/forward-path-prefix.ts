import type { IncomingMessage, ServerResponse } from "node:http";
import { forwardRequest } from "./forward-request.js";

/**
 * A route that forwards every request under `pathPrefix` to another server, unchanged: what an
 * ingress does when one base URL fronts several deployables (see `forwardRequest`).
 */
export function forwardPathPrefix(pathPrefix: string, target: string) {
  const base = new URL(target);
  return async (request: IncomingMessage, response: ServerResponse): Promise<boolean> => {
    if (!(request.url ?? "").startsWith(pathPrefix)) return false;
    await forwardRequest(request, response, base);
    return true;
  };
}

import type { ServerResponse } from "node:http";

/**
 * CORS for aopd's public routes. A wallet or a page on another origin posts to the AOPP callback
 * and the portal API, and browsers ask first (a JSON POST is not a "simple" request). Any origin
 * is allowed: these routes authenticate by the credential in their path, never by cookies or other
 * ambient authority (`access-control-allow-credentials` is never sent), so a foreign page can do
 * no more than the holder of the link it already has.
 */
export function allowAnyOrigin(response: ServerResponse): void {
  response.setHeader("access-control-allow-origin", "*");
}

/** Answers an `OPTIONS` preflight: 204 with the methods allowed on the path. */
export function answerPreflight(response: ServerResponse, methods: string): void {
  response.writeHead(204, {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": methods,
    "access-control-allow-headers": "content-type",
    "access-control-max-age": "600",
    "cache-control": "no-store",
  });
  response.end();
}

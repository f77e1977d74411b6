import type { RouteCall, RouteDefinition } from "../route-table.js";
import type { StaticPageFile } from "./static-page-files.js";

export interface StaticPageRouteOptions {
  /** Where the page lives, without the trailing slash: `/portal`. */
  path: string;
  /** From `loadStaticPage`; undefined when the page was not built (every request then gets 503). */
  files: Map<string, StaticPageFile> | undefined;
  /** The Content-Security-Policy's directives other than `frame-ancestors`. */
  policy: string[];
  /** Who may frame the page: `'none'` (also sends `X-Frame-Options: DENY`) or a list of origins. */
  frameAncestors: string;
  /** `redirect`: the bare path answers 308 to `path/`; `page`: it gets the page. */
  barePath: "redirect" | "page";
  /** What the 503 says while the page is not built. */
  notBuiltMessage: string;
}

/**
 * Serves a single-page application built by Vite under one path. Threat: a page that holds a
 * credential (a one-time link, an officer's token) must not run anyone else's script, be framed by a
 * site that overlays it (clickjacking), be sniffed into another type, or leak its URL in a Referer
 * header: every answer under the path carries the page's Content-Security-Policy, its
 * `frame-ancestors`, `nosniff` and `no-referrer`, errors included. Only GET and HEAD are served.
 * Every path that is not a file gets `index.html` (the page's own router decides), except under
 * `assets/`, where a missing hashed file is a 404 rather than HTML a script tag would choke on.
 * Two public routes: the bare path and everything under it.
 */
export function staticPageRoute(options: StaticPageRouteOptions): RouteDefinition<never>[] {
  const { path: base, files, frameAncestors } = options;
  const csp = [...options.policy, `frame-ancestors ${frameAncestors}`].join("; ");
  const handle = ({ request, response, path }: RouteCall<never>): void => {
    if (path === base && options.barePath === "redirect") {
      response.writeHead(308, { location: `${base}/` }).end();
      return;
    }
    response.setHeader("content-security-policy", csp);
    response.setHeader("x-content-type-options", "nosniff");
    response.setHeader("referrer-policy", "no-referrer");
    if (frameAncestors === "'none'") response.setHeader("x-frame-options", "DENY");
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }).end("Method not allowed.");
      return;
    }
    if (!files) {
      response.writeHead(503, { "content-type": "text/plain; charset=utf-8", "retry-after": "60" }).end(options.notBuiltMessage);
      return;
    }
    const name = path.slice(base.length + 1);
    const file = files.get(name) ?? (name.startsWith("assets/") ? undefined : files.get("index.html"));
    if (!file) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found.");
      return;
    }
    response.setHeader("cache-control", file.cacheControl);
    response.setHeader("etag", file.etag);
    response.setHeader("vary", "accept-encoding");
    if (request.headers["if-none-match"] === file.etag) {
      response.writeHead(304).end();
      return;
    }
    const accepted = String(request.headers["accept-encoding"] ?? "");
    const [encoding, body] = /\bbr\b/.test(accepted) ? ["br", file.br] : /\bgzip\b/.test(accepted) ? ["gzip", file.gzip] : [undefined, file.identity];
    response.writeHead(200, { "content-type": file.type, "content-length": body.length, ...(encoding ? { "content-encoding": encoding } : {}) });
    response.end(request.method === "HEAD" ? undefined : body);
  };
  return [
    { path: base, access: "public", handle },
    { path: `${base}/*`, access: "public", handle },
  ];
}

import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";

/**
 * What the console reads from `/console/config.json` at start: the identity provider and client it
 * signs in with, and the block explorers it links addresses to. In production any web server
 * serves the built files and a `config.json` the operator writes (docs/console.md).
 */
export interface ConsoleSettings {
  /** The OIDC issuer (`https://id.example.com/realms/compliance`). */
  issuer: string;
  /** The public OIDC client of the console. @default "compliance-graph-frontend" */
  clientId?: string;
  /** Per network (`bitcoin`, `ethereum`, ...): an explorer URL with `{address}` or `{tx}` in it. @default the public explorers in the console */
  explorers?: Record<string, { address?: string; tx?: string }>;
}

interface StaticFile {
  type: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  cacheControl: string;
}

const types: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
};

function staticFile(name: string, body: Buffer, cacheControl: string): StaticFile {
  return {
    type: types[name.slice(name.lastIndexOf("."))] ?? "application/octet-stream",
    identity: body,
    gzip: gzipSync(body, { level: 9 }),
    br: brotliCompressSync(body),
    etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`,
    cacheControl,
  };
}

/**
 * Serves the built console under `/console/` (what `npm start` and the browser tests use; a
 * production deployment may use any web server with the same headers). Threat: the console holds
 * an officer's access token in the page, so no script but its own may run there and no other site
 * may frame it (a strict Content-Security-Policy with `frame-ancestors 'none'`); it talks to this
 * origin and the identity provider only (`connect-src`), and sends no referrer, so neither a
 * proof's id nor the authorization code in the callback's query leaks to a linked block explorer.
 * Every path that is not a file gets `index.html`, the console's own router decides.
 */
export function consoleRoute(distDir: string, settings: ConsoleSettings) {
  let issuer: URL;
  try {
    issuer = new URL(settings.issuer);
  } catch {
    throw new Error(`consoleRoute: issuer must be an absolute URL such as https://id.example.com/realms/compliance; got ${JSON.stringify(settings.issuer)}.`);
  }
  // Tokens and passwords must not cross the network in clear text in production.
  if (issuer.protocol !== "https:" && (process.env.NODE_ENV === "production" || issuer.protocol !== "http:")) {
    throw new Error(`consoleRoute: issuer must use https${process.env.NODE_ENV === "production" ? " in production" : " or http"}; got ${issuer.protocol}.`);
  }
  for (const [network, explorer] of Object.entries(settings.explorers ?? {})) {
    for (const [kind, template] of Object.entries(explorer)) {
      if (typeof template !== "string" || !/^https:\/\//.test(template) || !template.includes(`{${kind === "tx" ? "tx" : "address"}}`)) {
        throw new Error(`consoleRoute: explorers.${network}.${kind} must be an https URL containing {${kind === "tx" ? "tx" : "address"}}; got ${JSON.stringify(template)}.`);
      }
    }
  }
  const files = new Map<string, StaticFile>();
  const built = existsSync(join(distDir, "index.html"));
  if (built) {
    files.set("index.html", staticFile("index.html", readFileSync(join(distDir, "index.html")), "no-cache"));
    for (const name of readdirSync(join(distDir, "assets"))) files.set(`assets/${name}`, staticFile(name, readFileSync(join(distDir, "assets", name)), "public, max-age=31536000, immutable"));
    files.set("config.json", staticFile("config.json", Buffer.from(JSON.stringify({ clientId: "compliance-graph-frontend", ...settings })), "no-cache"));
  }
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' blob: data:",
    "media-src 'self' blob:",
    `connect-src 'self' ${issuer.origin}`,
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self' ${issuer.origin}`,
    "frame-ancestors 'none'",
  ].join("; ");
  return async (request: IncomingMessage, response: ServerResponse): Promise<boolean> => {
    const path = (request.url ?? "").split("?")[0] ?? "";
    if (path === "/console") {
      response.writeHead(308, { location: "/console/" }).end();
      return true;
    }
    if (!path.startsWith("/console/")) return false;
    response.setHeader("content-security-policy", csp);
    response.setHeader("x-content-type-options", "nosniff");
    response.setHeader("x-frame-options", "DENY");
    response.setHeader("referrer-policy", "no-referrer");
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }).end("Method not allowed.");
      return true;
    }
    if (!built) {
      response.writeHead(503, { "content-type": "text/plain; charset=utf-8" }).end("The console is not built: npm run build -w @compliance-graph/console.");
      return true;
    }
    const name = path.slice("/console/".length);
    const file = files.get(name) ?? (name.startsWith("assets/") ? undefined : files.get("index.html"));
    if (!file) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found.");
      return true;
    }
    response.setHeader("cache-control", file.cacheControl);
    response.setHeader("etag", file.etag);
    response.setHeader("vary", "accept-encoding");
    if (request.headers["if-none-match"] === file.etag) {
      response.writeHead(304).end();
      return true;
    }
    const accepted = String(request.headers["accept-encoding"] ?? "");
    const [encoding, body] = /\bbr\b/.test(accepted) ? ["br", file.br] : /\bgzip\b/.test(accepted) ? ["gzip", file.gzip] : [undefined, file.identity];
    response.writeHead(200, { "content-type": file.type, "content-length": body.length, ...(encoding ? { "content-encoding": encoding } : {}) });
    response.end(request.method === "HEAD" ? undefined : body);
    return true;
  };
}

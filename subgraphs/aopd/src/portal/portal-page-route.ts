import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import type { PortalConfig } from "@compliance-graph/portal-contract";
import type { Logger } from "@compliance-graph/server-kit";
import type { AopdConfig } from "../aopd-config.js";
import type { PortalResources } from "./load-portal-resources.js";

/** One file of the page, compressed once at start-up. */
interface PortalFile {
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

function portalFile(name: string, body: Buffer, cacheControl: string): PortalFile {
  const extension = name.slice(name.lastIndexOf("."));
  return {
    type: types[extension] ?? "application/octet-stream",
    identity: body,
    gzip: gzipSync(body, { level: 9 }),
    br: brotliCompressSync(body),
    etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`,
    cacheControl,
  };
}

// Hashed names change with their content, so a browser may keep them a year; the rest is revalidated.
const immutable = "public, max-age=31536000, immutable";
const revalidate = "no-cache";

/**
 * The files behind `/portal/`: the built page from `distDir` and the operator's translations, theme
 * and logo (AOPD_*_FILE, the same the GraphQL `lang`, `theme` and `logo` serve), so that replacing
 * those needs a restart but no rebuild. Undefined when the page was not built.
 */
export function loadPortalFiles(distDir: string, resources: PortalResources, config: Pick<AopdConfig, "portalRedirectOrigins" | "portalContact">): Map<string, PortalFile> | undefined {
  if (!existsSync(join(distDir, "index.html"))) return undefined;
  const files = new Map<string, PortalFile>();
  files.set("index.html", portalFile("index.html", readFileSync(join(distDir, "index.html")), revalidate));
  for (const name of readdirSync(join(distDir, "assets"))) files.set(`assets/${name}`, portalFile(name, readFileSync(join(distDir, "assets", name)), immutable));
  files.set("lang.json", portalFile("lang.json", Buffer.from(resources.lang, "base64"), revalidate));
  files.set("theme.json", portalFile("theme.json", Buffer.from(resources.theme, "base64"), revalidate));
  files.set("logo.svg", portalFile("logo.svg", Buffer.from(resources.logo, "base64"), revalidate));
  const pageConfig: PortalConfig = { redirectOrigins: config.portalRedirectOrigins, contact: config.portalContact };
  files.set("config.json", portalFile("config.json", Buffer.from(JSON.stringify(pageConfig)), revalidate));
  return files;
}

/**
 * Serves the customer portal's page under `/portal/` (the API under `/portal/api/` is another
 * route). Threat: the page is where customers paste signatures, so it must not run anyone else's
 * script or be framed by a site that overlays it (clickjacking): a strict Content-Security-Policy
 * (scripts, styles and connections from this origin only; `frame-ancestors` from
 * AOPD_PORTAL_FRAME_ANCESTORS, default nowhere), `nosniff`, and no referrer, so the one-time
 * credential in the path never leaves in a Referer header. Every path that is not a file gets the
 * page itself, which tells the customer in their language that the link is not valid.
 */
export function portalPageRoute(files: Map<string, PortalFile> | undefined, config: Pick<AopdConfig, "portalFrameAncestors">, logger: Logger) {
  if (!files) logger.warn("the portal page is not built (npm run build -w @compliance-graph/portal); /portal/ answers 503");
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${config.portalFrameAncestors}`,
  ].join("; ");
  return async (request: IncomingMessage, response: ServerResponse): Promise<boolean> => {
    const path = (request.url ?? "").split("?")[0] ?? "";
    if (path !== "/portal" && !path.startsWith("/portal/")) return false;
    response.setHeader("content-security-policy", csp);
    response.setHeader("x-content-type-options", "nosniff");
    response.setHeader("referrer-policy", "no-referrer");
    if (config.portalFrameAncestors === "'none'") response.setHeader("x-frame-options", "DENY");
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }).end("Method not allowed.");
      return true;
    }
    if (!files) {
      response.writeHead(503, { "content-type": "text/plain; charset=utf-8", "retry-after": "60" }).end("The portal is not available.");
      return true;
    }
    const name = path.slice("/portal/".length);
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

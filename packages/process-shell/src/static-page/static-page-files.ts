import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";

/** One file of a built page, compressed once at start-up so no request pays for it. */
export interface StaticPageFile {
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

// Hashed names change with their content, so a browser may keep them a year; the rest is revalidated.
const immutable = "public, max-age=31536000, immutable";
const revalidate = "no-cache";

function staticPageFile(name: string, body: Buffer, cacheControl: string): StaticPageFile {
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
 * The files of a page Vite built into `distDir` (`index.html` and the hashed `assets/`), plus the
 * files the operator's settings make at start-up (`config.json`, translations), keyed by their
 * path under the page. Undefined when the page was not built, so the route can say so.
 */
export function loadStaticPage(distDir: string, startUpFiles: Record<string, Buffer> = {}): Map<string, StaticPageFile> | undefined {
  if (!existsSync(join(distDir, "index.html"))) return undefined;
  const files = new Map<string, StaticPageFile>();
  files.set("index.html", staticPageFile("index.html", readFileSync(join(distDir, "index.html")), revalidate));
  for (const name of readdirSync(join(distDir, "assets")))
    files.set(`assets/${name}`, staticPageFile(name, readFileSync(join(distDir, "assets", name)), immutable));
  for (const [name, body] of Object.entries(startUpFiles)) files.set(name, staticPageFile(name, body, revalidate));
  return files;
}

import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadStaticPage, RouteTable, staticPageRoute, type StaticPageRouteOptions } from "../src/index.js";

/**
 * The one route that serves a built page (the portal, the console): the headers every answer carries,
 * errors included, and what the two pages choose differently (the bare path, who may frame them).
 */
describe("staticPageRoute", () => {
  let distDir: string;
  const servers: Server[] = [];

  beforeAll(async () => {
    distDir = await mkdtemp(join(tmpdir(), "static-page-"));
    await mkdir(join(distDir, "assets"));
    await writeFile(join(distDir, "index.html"), '<!doctype html><div id="app"></div>');
    await writeFile(join(distDir, "assets", "main-abc123.js"), "console.log('page');");
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    await rm(distDir, { recursive: true, force: true });
  });

  async function serve(options: Partial<StaticPageRouteOptions>): Promise<string> {
    const route = staticPageRoute({
      path: "/page",
      files: undefined,
      policy: ["default-src 'self'"],
      frameAncestors: "'none'",
      barePath: "page",
      notBuiltMessage: "Not built.",
      ...options,
    });
    const table = new RouteTable(route);
    const server = createServer(
      (request, response) => void table.answer(request, response, "test").then((handled) => handled || response.writeHead(404).end("elsewhere")),
    );
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("answers 503 with a retry hint while the page is not built, behind the same headers as the page", async () => {
    const base = await serve({ files: loadStaticPage(join(distDir, "missing")) });
    const response = await fetch(`${base}/page/`);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("60");
    expect(await response.text()).toBe("Not built.");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'self'; frame-ancestors 'none'");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("serves the page at the bare path, or redirects it to the path with a slash, as each page chooses", async () => {
    const files = loadStaticPage(distDir);
    const page = await serve({ files, barePath: "page" });
    expect(await (await fetch(`${page}/page`)).text()).toContain('<div id="app">');
    const redirect = await serve({ files, barePath: "redirect" });
    const answer = await fetch(`${redirect}/page`, { redirect: "manual" });
    expect(answer.status).toBe(308);
    expect(answer.headers.get("location")).toBe("/page/");
    expect(await (await fetch(`${redirect}/pages`)).text()).toBe("elsewhere");
  });

  it("lets the named origins frame the page and then sends no X-Frame-Options, which could only say DENY or SAMEORIGIN", async () => {
    const base = await serve({ files: loadStaticPage(distDir), frameAncestors: "https://vasp.example" });
    const response = await fetch(`${base}/page/`);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors https://vasp.example");
    expect(response.headers.get("x-frame-options")).toBeNull();
  });

  it("serves start-up files revalidated and hashed assets for a year, and no body to HEAD", async () => {
    const base = await serve({ files: loadStaticPage(distDir, { "config.json": Buffer.from('{"a":1}') }) });
    const config = await fetch(`${base}/page/config.json`);
    expect(config.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(config.headers.get("cache-control")).toBe("no-cache");
    expect(await config.json()).toEqual({ a: 1 });
    const asset = await fetch(`${base}/page/assets/main-abc123.js`, { method: "HEAD" });
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await asset.text()).toBe("");
  });
});

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync, brotliDecompressSync } from "node:zlib";
import { portalDistDir } from "@compliance-graph/portal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";

/** The page's first load: everything index.html pulls in. */
const budgetBytes = 100 * 1024;

describe("the portal page as aopd serves it", () => {
  let aopd: TestAopd;
  let base: string;

  beforeAll(async () => {
    aopd = await startTestAopd("pglite", {
      config: {
        portalRedirectOrigins: ["https://vasp.example"],
        portalFrameAncestors: "https://vasp.example",
        portalContact: { kind: "url", href: "https://vasp.example/support", label: "https://vasp.example/support" },
      },
    });
    base = new URL(aopd.url).origin;
  });
  afterAll(async () => {
    await aopd?.close();
  });

  it("answers every path under /portal/ with the page, compressed and revalidated, behind a strict policy", async () => {
    for (const path of ["/portal/", `/portal/${"x".repeat(43)}`, "/portal/anything/else"]) {
      const response = await fetch(`${base}${path}`, { headers: { "accept-encoding": "br" } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
      expect(response.headers.get("content-security-policy")).toContain("frame-ancestors https://vasp.example");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
      expect(await response.text()).toContain('<main id="page"');
    }
  });

  it("serves hashed assets for a year, brotli or gzip as the browser accepts, and 304 for a known ETag", async () => {
    const index = await (await fetch(`${base}/portal/`)).text();
    const script = /src="(\/portal\/assets\/[^"]+\.js)"/.exec(index)![1]!;
    const raw = await fetch(`${base}${script}`, { headers: { "accept-encoding": "identity" } });
    const plain = Buffer.from(await raw.arrayBuffer());
    expect(raw.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(raw.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    // fetch decodes what it asked for; node:http shows the encoding as sent.
    const { request } = await import("node:http");
    const brotli = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      request(`${base}${script}`, { headers: { "accept-encoding": "gzip, br" } }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => resolve({ encoding: answer.headers["content-encoding"], body: Buffer.concat(chunks) }));
      })
        .on("error", reject)
        .end();
    });
    expect(brotli.encoding).toBe("br");
    expect(brotliDecompressSync(brotli.body).equals(plain)).toBe(true);
    const again = await fetch(`${base}${script}`, { headers: { "if-none-match": raw.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("serves the operator's translations, theme, logo, allowed redirect origins and contact", async () => {
    const lang = (await (await fetch(`${base}/portal/lang.json`)).json()) as Record<string, Record<string, string>>;
    expect(Object.keys(lang.en!).sort()).toEqual(Object.keys(lang.de!).sort());
    expect((await fetch(`${base}/portal/logo.svg`)).headers.get("content-type")).toBe("image/svg+xml");
    expect(await (await fetch(`${base}/portal/config.json`)).json()).toEqual({
      redirectOrigins: ["https://vasp.example"],
      contact: { kind: "url", href: "https://vasp.example/support", label: "https://vasp.example/support" },
    });
    expect((await fetch(`${base}/portal/assets/missing.js`)).status).toBe(404);
  });

  it("refuses methods other than GET and HEAD", async () => {
    const response = await fetch(`${base}/portal/`, { method: "POST", body: "x" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
  });

  it(`keeps the first load under ${budgetBytes / 1024} KB of compressed JavaScript and CSS`, () => {
    const assets = readdirSync(join(portalDistDir, "assets")).filter((name) => /\.(js|css)$/.test(name));
    const total = assets.reduce((sum, name) => sum + gzipSync(readFileSync(join(portalDistDir, "assets", name)), { level: 9 }).length, 0);
    expect(assets.length).toBeGreaterThan(0);
    expect(total).toBeLessThan(budgetBytes);
  });
});

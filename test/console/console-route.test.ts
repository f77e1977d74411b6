import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleDistDir, consoleRoute } from "@compliance-graph/console";
import { RouteTable } from "@compliance-graph/process-shell";

/** The route that serves the built console under /console/ (npm start, the browser tests). */
describe("consoleRoute", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const route = consoleRoute(consoleDistDir, {
      issuer: "http://127.0.0.1:9/auth/realms/dev",
      explorers: { bitcoin: { tx: "https://blockstream.info/tx/{tx}" } },
    });
    const table = new RouteTable(route);
    server = createServer((request, response) => {
      void table.answer(request, response, "test").then((handled) => handled || response.writeHead(404).end());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("serves the page for every route of the console, with a policy that lets only its own script run and no site frame it", async () => {
    for (const path of ["/console/", "/console/review", "/console/proofs/abc", "/console/callback?code=x&state=y"]) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toContain('<div id="app"');
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("connect-src 'self' http://127.0.0.1:9");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    }
    expect((await fetch(`${base}/console`, { redirect: "manual" })).headers.get("location")).toBe("/console/");
    expect((await fetch(`${base}/console/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${base}/console/`, { method: "POST" })).status).toBe(405);
    expect((await fetch(`${base}/other`)).status).toBe(404);
  });

  it("answers the settings the page starts from, the client id defaulted", async () => {
    expect(await (await fetch(`${base}/console/config.json`)).json()).toEqual({
      clientId: "compliance-graph-frontend",
      issuer: "http://127.0.0.1:9/auth/realms/dev",
      explorers: { bitcoin: { tx: "https://blockstream.info/tx/{tx}" } },
    });
  });

  it("refuses settings it cannot serve safely, naming the setting and what is allowed", () => {
    expect(() => consoleRoute(consoleDistDir, { issuer: "id.example.com" })).toThrow(/issuer must be an absolute URL/);
    expect(() => consoleRoute(consoleDistDir, { issuer: "ftp://id.example.com/realms/x" })).toThrow(/issuer must use https or http/);
    expect(() =>
      consoleRoute(consoleDistDir, { issuer: "https://id.example.com/realms/x", explorers: { bitcoin: { address: "javascript:alert(1)//{address}" } } }),
    ).toThrow(/explorers\.bitcoin\.address must be an https URL containing \{address\}/);
    const previous = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    try {
      expect(() => consoleRoute(consoleDistDir, { issuer: "http://id.example.com/realms/x" })).toThrow(/issuer must use https in production/);
    } finally {
      if (previous === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = previous;
    }
  });
});

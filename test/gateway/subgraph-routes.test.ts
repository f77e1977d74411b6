import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "@compliance-graph/gateway";
import { createInternalTokenVerifier, type Identity } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import { startStack, type Stack } from "../support/start-stack.js";

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  identity: Identity;
}

// A route of a subgraph the gateway's code never names: declared in a routes file alone. The
// "subgraph" is a plain HTTP server standing at trpd's routing URL, behind a path prefix (an
// ingress's), that verifies the internal token as a subgraph does and answers what it received.
describe("a subgraph route declared in subgraph-routes.yaml, with no gateway code", () => {
  let stack: Stack;
  let subgraph: Server;
  let gateway: RunningGateway;
  let folder: string;
  let token: string;
  const received: Received[] = [];
  /** What reached the subgraph's public document: its headers, unverified (there is nothing to verify). */
  const publicRequests: IncomingHttpHeaders[] = [];
  /** What reached the subgraph's public submission route (a witness's cosignature, say): headers and body. */
  const publicSubmissions: { headers: IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    stack = await startStack();
    token = await stack.fetchToken();
    const verify = createInternalTokenVerifier({ audience: "trpd", publicKeys: [stack.internalKey.publicJwk] });
    subgraph = createServer(async (request, response) => {
      if (request.url === "/ingress/trpd/.well-known/travel-keys.json") {
        publicRequests.push(request.headers);
        response.writeHead(200, { "content-type": "application/json", connection: "close" });
        response.end('{"keys":[]}');
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      if (request.url === "/ingress/trpd/.well-known/travel-cosignature") {
        publicSubmissions.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
        response.writeHead(202, { "content-type": "text/plain", connection: "close" });
        response.end("kept");
        return;
      }
      let identity: Identity;
      try {
        identity = await verify(request.headers);
      } catch {
        response.writeHead(401).end();
        return;
      }
      received.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), identity });
      response.writeHead(201, { "content-type": "text/plain", "x-travel-rule": "answered", connection: "close" });
      response.end(`file of ${identity.subject}`);
    });
    await new Promise<void>((resolve) => subgraph.listen(0, "127.0.0.1", resolve));
    const { port } = subgraph.address() as { port: number };
    folder = await mkdtemp(join(tmpdir(), "cg-routes-"));
    const routesPath = join(folder, "subgraph-routes.yaml");
    await writeFile(
      routesPath,
      [
        "routes:",
        "  - path: /travel/files/",
        "    subgraph: trpd",
        "    methods: [GET, POST]",
        "    role: proofs:read",
        "  - path: /travel/secret",
        "    subgraph: trpd",
        "    role: travel:secret",
        "    errorBody: graphql",
        "  - path: /.well-known/travel-keys.json",
        "    subgraph: trpd",
        "    methods: [GET, HEAD]",
        "    public: true",
        "  - path: /.well-known/travel-cosignature",
        "    subgraph: trpd",
        "    methods: [POST]",
        "    public: true",
        "    jsonBodyMaxBytes: 64",
        "",
      ].join("\n"),
    );
    gateway = await startGateway({
      port: 0,
      production: false,
      supergraph: { path: stack.supergraphPath },
      subgraphRoutesPath: routesPath,
      publicSubmissionsPerMinute: 3,
      subgraphUrls: { ...stack.subgraphUrls, trpd: `http://127.0.0.1:${port}/ingress/trpd/graphql` },
      oidc: { issuer: stack.idp.issuer, audience: stack.idp.audience },
      internalToken: { privateJwk: stack.internalKey.privateJwk },
      logger: createLogger("gateway", "silent"),
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await new Promise<void>((resolve) => (subgraph ? subgraph.close(() => resolve()) : resolve()));
    if (folder) await rm(folder, { recursive: true, force: true });
    await stack?.close();
  });

  it("passes the request to the subgraph under its routing URL's prefix, with an internal token for it and never the caller's", async () => {
    const response = await fetch(`${gateway.baseUrl}/travel/files/a.pdf?v=2`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream", cookie: "session=1" },
      body: "the file",
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-travel-rule")).toBe("answered");
    const subject = received.at(-1)?.identity.subject;
    expect(await response.text()).toBe(`file of ${subject}`);
    const request = received.at(-1)!;
    expect({ method: request.method, url: request.url, body: request.body }).toEqual({
      method: "POST",
      url: "/ingress/trpd/travel/files/a.pdf?v=2",
      body: "the file",
    });
    expect(request.identity.roles).toContain("proofs:read");
    expect(request.headers.authorization).not.toContain(token);
    expect(request.headers.cookie).toBeUndefined();
  });

  it("refuses a caller without a token, a method the route does not serve and a caller without the route's role, before the subgraph hears of it", async () => {
    const before = received.length;
    const anonymous = await fetch(`${gateway.baseUrl}/travel/files/a.pdf`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe("Bearer");
    expect(await anonymous.json()).toEqual({ error: "unauthenticated", reason: "A valid bearer token is required." });
    const deleted = await fetch(`${gateway.baseUrl}/travel/files/a.pdf`, { method: "DELETE", headers: { authorization: `Bearer ${token}` } });
    expect(deleted.status).toBe(405);
    expect(deleted.headers.get("allow")).toBe("GET, POST");
    const forbidden = await fetch(`${gateway.baseUrl}/travel/secret`, { headers: { authorization: `Bearer ${token}` } });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ errors: [{ extensions: { code: "FORBIDDEN", requiredRole: "travel:secret" } }] });
    expect(received.length).toBe(before);
  });

  it("refuses a path with a dot segment, which would leave the route's prefix at the subgraph, before the subgraph hears of it", async () => {
    const before = received.length;
    // Raw requests: fetch would resolve the dot segments before sending.
    const rawGet = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const url = new URL(gateway.baseUrl);
        const call = httpRequest({ host: url.hostname, port: url.port, path, headers: { authorization: `Bearer ${token}` } }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        });
        call.on("error", reject);
        call.end();
      });
    for (const path of ["/travel/files/../secret", "/travel/files/%2e%2E/secret", "/travel/files/..\\secret", "/travel/files/./a.pdf"]) {
      const answer = await rawGet(path);
      expect({ path, status: answer.status }).toEqual({ path, status: 400 });
      expect(answer.body).toContain("path");
    }
    expect(received.length).toBe(before);
  });

  it("serves a public route to anyone, and never passes an identity on: neither the caller's token nor one minted for it", async () => {
    const anonymous = await fetch(`${gateway.baseUrl}/.well-known/travel-keys.json`);
    expect([anonymous.status, await anonymous.text()]).toEqual([200, '{"keys":[]}']);
    const withToken = await fetch(`${gateway.baseUrl}/.well-known/travel-keys.json`, { headers: { authorization: `Bearer ${token}`, cookie: "session=1" } });
    expect(withToken.status).toBe(200);
    expect(publicRequests).toHaveLength(2);
    for (const headers of publicRequests) expect([headers.authorization, headers.cookie]).toEqual([undefined, undefined]);
    // Reading only: a body-carrying method is refused at the gateway.
    const posted = await fetch(`${gateway.baseUrl}/.well-known/travel-keys.json`, { method: "POST", body: "{}" });
    expect([posted.status, posted.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
    expect(publicRequests).toHaveLength(2);
  });

  it("takes a small JSON body on a public POST route from anyone, without an identity, bounded in size and per address", async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${gateway.baseUrl}/.well-known/travel-cosignature`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
    const kept = await post('{"checkpoint":"note"}', { authorization: `Bearer ${token}` });
    expect([kept.status, await kept.text()]).toEqual([202, "kept"]);
    expect(publicSubmissions).toHaveLength(1);
    expect(publicSubmissions[0]!.body).toBe('{"checkpoint":"note"}');
    expect([publicSubmissions[0]!.headers.authorization, publicSubmissions[0]!.headers["content-type"]]).toEqual([undefined, "application/json"]);
    // Over the declared size, or not JSON: refused at the gateway (each still counts against the address).
    const large = await post(JSON.stringify({ checkpoint: "x".repeat(100) }));
    expect(large.status).toBe(413);
    // The third this minute is the last the address gets (publicSubmissionsPerMinute: 3).
    const malformed = await post("not json");
    expect(malformed.status).toBe(400);
    const limited = await post('{"checkpoint":"again"}');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ error: "rate_limited", reason: expect.stringMatching(/at most 3 a minute/) });
    expect(publicSubmissions).toHaveLength(1);
  });

  it("answers 503 naming the subgraph, not its address, when the subgraph cannot be reached", async () => {
    const down = createServer();
    await new Promise<void>((resolve) => down.listen(0, "127.0.0.1", resolve));
    const { port } = down.address() as { port: number };
    await new Promise<void>((resolve) => down.close(() => resolve()));
    const other = await startGateway({
      port: 0,
      production: false,
      supergraph: { path: stack.supergraphPath },
      subgraphRoutesPath: join(folder, "subgraph-routes.yaml"),
      subgraphUrls: { ...stack.subgraphUrls, trpd: `http://127.0.0.1:${port}/graphql` },
      oidc: { issuer: stack.idp.issuer, audience: stack.idp.audience },
      internalToken: { privateJwk: stack.internalKey.privateJwk },
      logger: createLogger("gateway", "silent"),
    });
    try {
      const response = await fetch(`${other.baseUrl}/travel/files/a.pdf`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ error: "service_unavailable", reason: "The trpd service is unavailable; try again shortly." });
    } finally {
      await other.close();
    }
  });
});

import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CompactSign, exportJWK, generateKeyPair, type CryptoKey, type JWK } from "jose";
import type { InternalTokenVerifier } from "@compliance-graph/identity";

/** One usage report as the gateway sends it (docs/schema-registry.md, `POST /usage`). */
export interface UsageReport {
  operationHash: string;
  client: string;
  hour: string;
  count: number;
  coordinates: string[];
}

export interface RegistryTestPeer {
  /** `http://127.0.0.1:<port>`: the gateway's `GATEWAY_REGISTRY_URL`. */
  url: string;
  /** The registry's public key set, as `GATEWAY_SUPERGRAPH_KEYS` takes it. */
  publicJwks: string;
  /** Serves a new version, signed with the registry's key; resolves to its version. */
  publish(supergraph: string, routes?: unknown[]): number;
  /** Serves a new version signed with another key (an attacker's): a gateway must refuse it. */
  publishForged(supergraph: string, routes?: unknown[]): number;
  /** Serves a new version whose signature is genuine but whose supergraph was changed after signing. */
  publishTampered(signedSupergraph: string, servedSupergraph: string): number;
  /** The usage reports received, each request's in order, from callers whose internal token verified. */
  readonly usage: UsageReport[];
  /** Resolves when `count` usage reports in all have arrived. */
  usageReports(count: number, timeoutMs?: number): Promise<UsageReport[]>;
  /** Stops answering (the registry is down); `start` serves again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

async function newKey(kid: string): Promise<{ privateKey: CryptoKey; publicJwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" } };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * A test peer of the gateway: a small, real HTTP server that speaks the schema registry's contract
 * with the gateways (docs/schema-registry.md) with a real ES256 key, signing exactly as the
 * contract says. Not our registry and not a mock of it: the gateway side is tested against the
 * contract, so a registry that keeps the contract works with it. `POST /usage` verifies the
 * gateway's internal token with the verifier it is given.
 */
export async function startRegistryTestPeer(usageVerifier?: InternalTokenVerifier): Promise<RegistryTestPeer> {
  const registryKey = await newKey("registry-1");
  const attackerKey = await newKey("registry-1");
  let served: { version: number; supergraph: string; routes: string; signature: string } | undefined;
  let version = 0;
  const usage: UsageReport[] = [];
  const usageWaiters: (() => void)[] = [];

  const sign = async (key: CryptoKey, signedVersion: number, supergraph: string, routes: string) =>
    new CompactSign(
      new TextEncoder().encode(
        JSON.stringify({ version: signedVersion, supergraphSha256: sha256(supergraph), routesSha256: sha256(routes), iat: Math.floor(Date.now() / 1000) }),
      ),
    )
      .setProtectedHeader({ alg: "ES256", kid: "registry-1" })
      .sign(key);
  // Signing is asynchronous; a publish is served once its signature is ready.
  let signing: Promise<void> = Promise.resolve();
  const serve = (key: CryptoKey, signedSupergraph: string, servedSupergraph: string, routes: unknown[]) => {
    const next = ++version;
    const routesText = JSON.stringify(routes);
    signing = signing.then(async () => {
      served = { version: next, supergraph: servedSupergraph, routes: routesText, signature: await sign(key, next, signedSupergraph, routesText) };
    });
    return next;
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const path = (request.url ?? "/").split("?")[0];
      if (request.method === "GET" && path === "/supergraph") {
        await signing;
        if (!served)
          return void response
            .writeHead(404, { "content-type": "application/json" })
            .end(JSON.stringify({ error: "not_found", reason: "Nothing is published yet." }));
        if (request.headers["if-none-match"] === `"${served.version}"`) return void response.writeHead(304).end();
        return void response.writeHead(200, { "content-type": "application/json", etag: `"${served.version}"` }).end(JSON.stringify(served));
      }
      if (request.method === "GET" && path === "/.well-known/registry-keys.json") {
        return void response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [registryKey.publicJwk] }));
      }
      if (request.method === "POST" && path === "/usage") {
        try {
          if (usageVerifier) await usageVerifier(request.headers);
        } catch {
          return void response.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "unauthenticated" }));
        }
        const body = JSON.parse(await readBody(request)) as { reports: UsageReport[] };
        usage.push(...body.reports);
        for (const wake of usageWaiters.splice(0)) wake();
        return void response.writeHead(202, { "content-type": "application/json" }).end(JSON.stringify({ accepted: body.reports.length }));
      }
      response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "not_found" }));
    })();
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
  await listen(0);
  const { port } = server.address() as AddressInfo;
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });

  return {
    url: `http://127.0.0.1:${port}`,
    publicJwks: JSON.stringify({ keys: [registryKey.publicJwk] }),
    publish: (supergraph, routes = []) => serve(registryKey.privateKey, supergraph, supergraph, routes),
    publishForged: (supergraph, routes = []) => serve(attackerKey.privateKey, supergraph, supergraph, routes),
    publishTampered: (signedSupergraph, servedSupergraph) => serve(registryKey.privateKey, signedSupergraph, servedSupergraph, []),
    usage,
    async usageReports(count, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (usage.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`${count} usage reports never arrived within ${timeoutMs} ms; got ${JSON.stringify(usage)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          usageWaiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return usage;
    },
    stop,
    start: () => listen(port),
    close: async () => {
      if (server.listening) await stop();
    },
  };
}

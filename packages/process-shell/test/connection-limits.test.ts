import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  connectionLimitsFromEnv,
  createHttpServerShell,
  createLogger,
  defaultConnectionLimits,
  ServiceMetrics,
  startMetricsServer,
  type ConnectionLimits,
  type HttpServerShell,
} from "../src/index.js";

/**
 * The attacks of a slowloris, on the shell every deployable's listener is (gateway, aopd, trpd, the
 * metrics port): sockets that trickle header lines or send nothing, and one address opening more
 * sockets than its share. Run on Node 20 and on Node 24 (`.ci/node24`): Node's own header timeout
 * is what ends a trickle, and its behaviour is what changed between the lines.
 */
describe("bounded connections", () => {
  let shell: HttpServerShell | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await shell?.close();
    shell = undefined;
  });

  let release: (() => void) | undefined;
  let metrics: ServiceMetrics;
  async function start(limits: Partial<ConnectionLimits>) {
    release = undefined;
    metrics = new ServiceMetrics("probe");
    shell = createHttpServerShell({
      metrics,
      port: 0,
      logger: createLogger("probe", "silent"),
      checkReady: async () => {},
      drainMs: 10_000,
      connectionLimits: { ...defaultConnectionLimits, ...limits },
      routes: [
        {
          path: "/held",
          access: "public",
          handle: ({ response }) => {
            release = () => response.end("released");
          },
        },
      ],
    });
    const base = await shell.listen();
    return new URL(base);
  }

  /** A raw socket from `localAddress`; resolves once connected. */
  function open(url: URL, localAddress = "127.0.0.1"): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
    return new Promise((resolve, reject) => {
      let data = "";
      const socket = connect({ host: url.hostname, port: Number(url.port), localAddress }, () => resolve({ socket, received: () => data, closed }));
      const closed = new Promise<void>((done) => socket.once("close", () => done()));
      socket.on("data", (chunk: Buffer) => (data += chunk.toString("latin1")));
      socket.once("error", reject);
      sockets.push(socket);
    });
  }

  /** Writes a header line every `everyMs` until the socket closes; the trickle a slowloris sends. */
  function trickle(socket: Socket, everyMs: number): void {
    socket.write("GET /health/live HTTP/1.1\r\nHost: probe\r\n");
    let line = 0;
    const timer = setInterval(() => {
      if (!socket.destroyed) socket.write(`X-Trickle-${line++}: a\r\n`);
    }, everyMs);
    socket.once("close", () => clearInterval(timer));
  }

  function get(url: URL, path: string, localAddress = "127.0.0.1"): Promise<{ status: number; connection: string | undefined; body: string }> {
    return new Promise((resolve, reject) => {
      const outgoing = request({ host: url.hostname, port: url.port, path, localAddress, agent: false, headers: { connection: "keep-alive" } }, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body }));
      });
      outgoing.once("error", reject);
      outgoing.end();
    });
  }

  it(`answers 408 and closes a socket that trickles header lines past the header deadline (Node ${process.versions.node})`, async () => {
    const url = await start({ headersTimeoutMs: 1_000 });
    const { socket, received, closed } = await open(url);
    trickle(socket, 200);
    // Node's default (60 s, checked every 30 s) would outlast this wait; the deadline set is 1 s.
    await expect(
      Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error("still open after 20 s")), 20_000))]),
    ).resolves.toBeUndefined();
    expect(received()).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  });

  it("closes a socket that sends nothing at the header deadline", async () => {
    const url = await start({ headersTimeoutMs: 1_000 });
    const { received, closed } = await open(url);
    await expect(
      Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error("still open after 20 s")), 20_000))]),
    ).resolves.toBeUndefined();
    expect(received()).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  });

  it("closes a request whose body trickles past the request deadline", async () => {
    const url = await start({ headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 });
    const { socket, received, closed } = await open(url);
    socket.write("POST /held HTTP/1.1\r\nHost: probe\r\nContent-Length: 1000\r\n\r\n");
    const timer = setInterval(() => socket.destroyed || socket.write("a"), 200);
    await expect(
      Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error("still open after 20 s")), 20_000))]),
    ).resolves.toBeUndefined();
    clearInterval(timer);
    expect(received()).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  });

  it("bounds the metrics listener (METRICS_PORT) the same way", async () => {
    const server = await startMetricsServer(
      new ServiceMetrics("probe"),
      { port: 0, host: "127.0.0.1" },
      { ...defaultConnectionLimits, headersTimeoutMs: 1_000 },
    );
    try {
      const { socket, received, closed } = await open(new URL(server.url));
      trickle(socket, 200);
      await expect(
        Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error("still open after 20 s")), 20_000))]),
      ).resolves.toBeUndefined();
      expect(received()).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
    } finally {
      await server.close();
    }
  });

  it("closes connections past the per-address cap at once, counts them by the server's own state, and serves other addresses", async () => {
    const url = await start({ maxConnectionsPerAddress: 5 });
    const held = [];
    for (let i = 0; i < 5; i += 1) held.push(await open(url));
    await expect.poll(() => shell!.connectionsFrom("127.0.0.1"), { timeout: 10_000 }).toBe(5);
    // Twenty more from the same address: each closed without an answer, none counted.
    const excess = await Promise.all(Array.from({ length: 20 }, () => open(url)));
    await Promise.all(excess.map(({ closed }) => closed));
    expect(excess.every(({ received }) => received() === "")).toBe(true);
    expect(shell!.connectionsFrom("127.0.0.1")).toBe(5);
    expect((await metrics.httpConnectionsRefused.get()).values[0]?.value).toBe(20);
    // Another client (another loopback address) is served meanwhile.
    expect(await get(url, "/health/live", "127.0.0.2")).toMatchObject({ status: 200 });
    // A socket given back frees its place.
    held[0]!.socket.destroy();
    await expect.poll(() => shell!.connectionsFrom("127.0.0.1"), { timeout: 10_000 }).toBe(4);
    expect((await get(url, "/health/live")).status).toBe(200);
  });

  it("answers with Connection: close once a drain began, the request in flight included", async () => {
    const url = await start({});
    expect((await get(url, "/health/live")).connection).toBe("keep-alive");
    const inFlight = get(url, "/held");
    await expect.poll(() => release !== undefined, { timeout: 10_000 }).toBe(true);
    const closing = shell!.close();
    release!();
    expect(await inFlight).toEqual({ status: 200, connection: "close", body: "released" });
    await closing;
    shell = undefined;
  });

  it("reads HTTP_* and refuses what is not allowed, naming the variable", () => {
    expect(connectionLimitsFromEnv({})).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 300_000, maxConnectionsPerAddress: 2_000 });
    expect(connectionLimitsFromEnv({ HTTP_HEADERS_TIMEOUT_MS: "5000", HTTP_REQUEST_TIMEOUT_MS: "60000", HTTP_MAX_CONNECTIONS_PER_ADDRESS: "0" })).toEqual({
      headersTimeoutMs: 5_000,
      requestTimeoutMs: 60_000,
      maxConnectionsPerAddress: 0,
    });
    expect(() => connectionLimitsFromEnv({ HTTP_HEADERS_TIMEOUT_MS: "soon" })).toThrow('HTTP_HEADERS_TIMEOUT_MS must be a non-negative integer; got "soon".');
    expect(() => connectionLimitsFromEnv({ HTTP_HEADERS_TIMEOUT_MS: "70000", HTTP_REQUEST_TIMEOUT_MS: "60000" })).toThrow(
      "HTTP_HEADERS_TIMEOUT_MS (70000) may not exceed HTTP_REQUEST_TIMEOUT_MS (60000).",
    );
    expect(() => connectionLimitsFromEnv({ NODE_ENV: "production", HTTP_MAX_CONNECTIONS_PER_ADDRESS: "0" })).toThrow(
      /HTTP_MAX_CONNECTIONS_PER_ADDRESS=0 switches its limit off, which production refuses/,
    );
    expect(() => connectionLimitsFromEnv({ NODE_ENV: "production", HTTP_HEADERS_TIMEOUT_MS: "0" })).toThrow(/HTTP_HEADERS_TIMEOUT_MS=0/);
  });
});

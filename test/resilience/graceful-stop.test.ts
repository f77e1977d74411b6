import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import WebSocket from "ws";
import { describe, expect, it } from "vitest";
import { freePort, pollUntil } from "@compliance-graph/test-kit";

interface Deployable {
  child: ChildProcess;
  base: string;
  /** Resolves when the process has logged this message. */
  logged(message: string): Promise<void>;
  exited: Promise<number | null>;
}

/** A deployable in its own process, as an orchestrator runs it, with its JSON log readable. */
async function startDeployable(entry: string, env: Record<string, string>, port: number): Promise<Deployable> {
  // NODE_ENV empty rather than vitest's "test": Apollo Server installs its signal handlers only outside tests.
  const child = spawn(process.execPath, ["--import", "tsx", entry], {
    env: { ...process.env, NODE_ENV: "", LOG_LEVEL: "info", APOLLO_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const messages: string[] = [];
  const waiting: { message: string; resolve: () => void }[] = [];
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) {
      const message = (JSON.parse(line) as { msg?: string }).msg ?? "";
      messages.push(message);
      for (const waiter of waiting.filter((entry) => entry.message === message)) waiter.resolve();
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const logged = (message: string) => (messages.includes(message) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ message, resolve })));
  const live = async () => {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
    return fetch(`${base}/health/live`).then(
      (answer) => answer.ok,
      () => false,
    );
  };
  try {
    await pollUntil(`${entry} live`, live, (ok) => ok, { timeoutMs: 90_000, intervalMs: 100 });
    return { child, base, logged, exited };
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
}

/** A POST whose body is sent in two halves: in flight until `finish` is called. */
function heldRequest(url: string, body: string): { finish(): void; answer: Promise<{ status: number; body: string }> } {
  const half = Math.floor(body.length / 2);
  let finish!: () => void;
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const outgoing = request(
      url,
      { method: "POST", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      },
    );
    outgoing.on("error", reject);
    outgoing.write(body.slice(0, half));
    finish = () => outgoing.end(body.slice(half));
  });
  return { finish, answer };
}

/** An open, acknowledged graphql-transport-ws socket, and the close code the server will send. */
async function openSocket(url: string, payload: Record<string, unknown> = {}): Promise<{ closed: Promise<number> }> {
  const socket = new WebSocket(url, "graphql-transport-ws");
  const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => socket.send(JSON.stringify({ type: "connection_init", payload })));
    socket.on("message", (data) => {
      if ((JSON.parse(String(data)) as { type: string }).type === "connection_ack") resolve();
    });
    socket.once("error", reject);
  });
  return { closed };
}

const query = JSON.stringify({ query: "{ aopd { proofsCount } }" });

// Each test starts a deployable in a process of its own, which takes seconds on a busy machine.
describe("a graceful stop on SIGTERM", { timeout: 120_000 }, () => {
  it("aopd finishes the request in flight, closes subscription sockets with 1001 and exits 0", async () => {
    const port = await freePort();
    const aopd = await startDeployable(
      "subgraphs/aopd/src/main.ts",
      { AOPD_PORT: String(port), AOPD_DATA_DIR: "memory://", AOPD_EXPIRY_INTERVAL_SECONDS: "0", INSECURE_DEVELOPMENT_IDENTITY: "true" },
      port,
    );
    const { closed: socketClosed } = await openSocket(`ws://127.0.0.1:${port}/graphql`);
    const held = heldRequest(`${aopd.base}/graphql`, query);
    aopd.child.kill("SIGTERM");
    await aopd.logged("shutting down");
    held.finish();
    const answer = await held.answer;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ data: { aopd: { proofsCount: 0 } } });
    expect(await socketClosed).toBe(1001);
    expect(await aopd.exited).toBe(0);
  });

  it("the gateway finishes the request in flight, closes subscription sockets with 1001 and exits 0", async () => {
    const port = await freePort();
    const gateway = await startDeployable(
      "gateway/src/main.ts",
      { PORT: String(port), DEV_IDENTITY_PROVIDER: "true", PUBLIC_BASE_URL: `http://127.0.0.1:${port}` },
      port,
    );
    const token = (await (
      await fetch(`${gateway.base}/auth/realms/dev/protocol/openid-connect/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ client_id: "dev-api-client", client_secret: "dev-secret", grant_type: "client_credentials", scope: "openid" }),
      })
    ).json()) as { access_token: string };
    const { closed: socketClosed } = await openSocket(`ws://127.0.0.1:${port}/graphql`, { bearer_token: token.access_token });
    // The gateway answers the held request itself (no subgraph runs here): it is the request's life
    // across the stop that counts.
    const held = heldRequest(`${gateway.base}/graphql`, query);
    gateway.child.kill("SIGTERM");
    await gateway.logged("shutting down");
    held.finish();
    const answer = await held.answer;
    expect(answer.status).not.toBe(0);
    expect(await socketClosed).toBe(1001);
    expect(await gateway.exited).toBe(0);
  });
});

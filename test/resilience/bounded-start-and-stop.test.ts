import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { startFreezableTcpProxy, type FreezableTcpProxy } from "../support/freezable-tcp-proxy.js";

interface Started {
  child: ChildProcess;
  /** Every JSON log line so far. */
  lines: { msg: string; level: number; [key: string]: unknown }[];
  /** Resolves with the first log line with this message. */
  logged(message: string): Promise<{ msg: string; [key: string]: unknown }>;
  /** Resolves with the exit code, or the signal that ended it. */
  exited: Promise<number | NodeJS.Signals | null>;
}

/** A deployable in its own process, as an orchestrator runs it, with its JSON log readable. */
function startProcess(entry: string, env: Record<string, string>): Started {
  // NODE_ENV empty rather than vitest's "test", as in production.
  const child = spawn(process.execPath, ["--import", "tsx", entry], {
    env: { ...process.env, NODE_ENV: "", LOG_LEVEL: "info", APOLLO_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: Started["lines"] = [];
  const waiting: { message: string; resolve: (line: Started["lines"][number]) => void }[] = [];
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    const parts = buffer.split("\n");
    buffer = parts.pop() ?? "";
    for (const part of parts) {
      const line = JSON.parse(part) as Started["lines"][number];
      lines.push(line);
      for (const waiter of waiting.filter((entry) => entry.message === line.msg)) waiter.resolve(line);
    }
  });
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  const logged = (message: string) =>
    new Promise<Started["lines"][number]>((resolve, reject) => {
      const seen = lines.find((line) => line.msg === message);
      if (seen) return resolve(seen);
      waiting.push({ message, resolve });
      void exited.then((code) =>
        reject(new Error(`${entry} exited (${code}) before logging ${JSON.stringify(message)}; it logged ${JSON.stringify(lines.map((line) => line.msg))}`)),
      );
    });
  return { child, lines, logged, exited };
}

const attemptLine = "the database does not answer yet; trying again";

/**
 * Start-up and shutdown are bounded. A database that accepts connections and never answers used
 * to hold aopd's start-up forever, without a word in the log; and a stopping process whose
 * shutdown waits on something that never ends stayed alive (with no port open) until it was
 * killed. Each deployable runs in its own process here, as in production.
 */
describe("bounded start-up and shutdown", { timeout: 180_000 }, () => {
  let proxy: FreezableTcpProxy;
  let databaseUrl: string;
  const running: ChildProcess[] = [];

  beforeAll(async () => {
    proxy = await startFreezableTcpProxy();
    const url = new URL(await createTestDatabase("boundedstart"));
    url.port = String(proxy.port);
    databaseUrl = url.toString();
    // Frozen from the start: connections are accepted and nothing is ever answered.
    proxy.freeze();
  });
  afterAll(async () => {
    for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await proxy?.close();
  });

  const aopdEnv = (env: Record<string, string>) => ({
    DATABASE_URL: databaseUrl,
    AOPD_PORT: "0",
    AOPD_EXPIRY_INTERVAL_SECONDS: "0",
    AOPD_DB_CONNECT_TIMEOUT_MS: "500",
    SHUTDOWN_DRAIN_SECONDS: "1",
    // aopd alone, without a gateway's key to verify: said explicitly, or it refuses to start.
    INSECURE_DEVELOPMENT_IDENTITY: "true",
    ...env,
  });

  it("aopd tries its silent database again with a log line per attempt and exits non-zero after AOPD_DB_STARTUP_TIMEOUT_MS", async () => {
    const aopd = startProcess("subgraphs/aopd/src/main.ts", aopdEnv({ AOPD_DB_STARTUP_TIMEOUT_MS: "2000" }));
    running.push(aopd.child);
    const code = await aopd.exited;
    expect(code).not.toBe(0);
    expect(typeof code).toBe("number");
    const attempts = aopd.lines.filter((line) => line.msg === attemptLine);
    expect(attempts.length).toBeGreaterThanOrEqual(1);
    expect(attempts[0]).toMatchObject({ attempt: 1, level: 40 });
    expect(aopd.lines.at(-1)).toMatchObject({ msg: "aopd could not start", level: 60 });
  });

  it("aopd stops on SIGTERM while it still waits for its database, with exit code 0", async () => {
    const aopd = startProcess("subgraphs/aopd/src/main.ts", aopdEnv({ AOPD_DB_STARTUP_TIMEOUT_MS: "600000" }));
    running.push(aopd.child);
    await aopd.logged(attemptLine);
    aopd.child.kill("SIGTERM");
    await aopd.logged("shutting down");
    expect(await aopd.exited).toBe(0);
  });

  it("a shutdown that never finishes ends the process within SHUTDOWN_DRAIN_SECONDS plus the grace, with exit code 1", async () => {
    const stuck = startProcess("test/support/hanging-shutdown-process.ts", { SHUTDOWN_DRAIN_SECONDS: "1" });
    running.push(stuck.child);
    await stuck.logged("ready");
    stuck.child.kill("SIGTERM");
    expect(await stuck.exited).toBe(1);
    expect(stuck.lines.map((line) => line.msg)).toEqual(["ready", "shutting down", "shutdown did not finish in time; exiting"]);
  });
});

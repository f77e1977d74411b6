import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface BenchProcess {
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a deployable in a process of its own (as in production) and waits until `readyUrl` answers 200. */
export async function startProcess(entry: string, env: Record<string, string>, readyUrl: string): Promise<BenchProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", entry], {
    env: { ...process.env, LOG_LEVEL: "warn", APOLLO_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
    try {
      if ((await fetch(readyUrl)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${entry} did not become ready`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { pollUntil } from "./poll-until.js";

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

/** A URL that answers 200 once the process is ready, or a request (a POST, say) that does. */
export type ReadyCheck = string | { url: string; init: RequestInit };

/**
 * Starts a deployable in a process of its own (as in production) and waits until `ready` answers
 * 200. `args` follow the entry (a CLI's command and flags).
 */
export async function startProcess(entry: string, env: Record<string, string>, ready: ReadyCheck, args: string[] = []): Promise<BenchProcess> {
  const [readyUrl, readyInit] = typeof ready === "string" ? [ready, undefined] : [ready.url, ready.init];
  const child = spawn(process.execPath, ["--import", "tsx", entry, ...args], {
    env: { ...process.env, LOG_LEVEL: "warn", APOLLO_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "inherit", "inherit"],
  });
  // Three minutes: on a shared machine under load, several servers compiling their TypeScript at
  // once have taken over a minute to answer.
  try {
    await pollUntil(
      `${entry} answering ${readyUrl}`,
      async () => {
        if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
        return fetch(readyUrl, readyInit).then(
          (response) => response.ok,
          () => false,
        );
      },
      (ready) => ready,
      { timeoutMs: 180_000 },
    );
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        // A server that does not finish its shutdown within 10 seconds is killed, so that one
        // stuck process cannot hang the whole benchmark run.
        const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        child.once("exit", () => {
          clearTimeout(killer);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

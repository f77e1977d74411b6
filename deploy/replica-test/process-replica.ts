import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { deployableEntries, type ReplicaFactory } from "./replica.js";

/** A replica as a plain Node process (the replica test's runtime where podman is not installed). */
export const processReplica: ReplicaFactory = (deployable, name, port, env) => {
  let child: ChildProcess | undefined;
  return {
    name,
    base: `http://127.0.0.1:${port}`,
    async start() {
      child = spawn(process.execPath, ["--import", "tsx", deployableEntries[deployable]], {
        env: { ...process.env, ...env },
        stdio: ["ignore", "ignore", "inherit"],
      });
    },
    async stop(signal, timeoutMs = 60_000) {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = once(running, "exit");
      running.kill(signal);
      const timer = setTimeout(() => running.kill("SIGKILL"), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
    async dispose() {
      await this.stop("SIGKILL");
    },
  };
};

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { ReplicaFactory } from "./replica.js";

const run = promisify(execFile);

/** `podman <args>` with the project's settings (deploy/podman/containers.conf); resolves with its stdout. */
export async function podman(args: string[], timeoutMs = 120_000): Promise<string> {
  const { stdout } = await run("podman", args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 });
  return stdout.trim();
}

/**
 * A replica as a container of the image `compliance-graph/<deployable>:<tag>`, on the host's network (the load
 * balancer and PostgreSQL run on the host), with a read-only root file system, as an orchestrator would run it.
 * A restart starts the same container again, as a pod's container restarts.
 */
export function containerReplica(imageTag: string, prefix: string): ReplicaFactory {
  return (deployable, name, port, env) => {
    const container = `${prefix}-${name}`;
    let created = false;
    return {
      name,
      base: `http://127.0.0.1:${port}`,
      async start() {
        if (created) {
          await podman(["start", container]);
          return;
        }
        const environment = Object.entries(env).flatMap(([key, value]) => ["--env", `${key}=${value}`]);
        await podman([
          "run",
          "--detach",
          "--name",
          container,
          "--network",
          "host",
          "--read-only",
          "--stop-timeout",
          "30",
          ...environment,
          `localhost/compliance-graph/${deployable}:${imageTag}`,
        ]);
        created = true;
      },
      async stop(signal, timeoutMs = 60_000) {
        if (!created) return;
        const state = await podman(["inspect", "--format", "{{.State.Running}}", container]);
        if (state !== "true") return;
        await podman(["kill", "--signal", signal === "SIGKILL" ? "KILL" : "TERM", container]);
        await podman(["wait", container], timeoutMs).catch(async () => {
          await podman(["kill", "--signal", "KILL", container]);
          await podman(["wait", container]);
        });
      },
      async dispose() {
        if (created) await podman(["rm", "--force", "--time", "0", container]).catch(() => "");
      },
    };
  };
}

import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pollUntil } from "@compliance-graph/test-kit";

export interface Pool {
  /** The frontend's port. */
  port: number;
  /** The replicas behind it, by name and port. */
  servers: { name: string; port: number }[];
}

/**
 * HAProxy's configuration for the replica test, as an ingress in front of replicas is set up: every replica's
 * readiness probe every second (out after two failures, back after two answers), a request whose connection fails
 * goes to the other replica (`retry-on conn-failure`: the request never reached the first, so retrying it is safe
 * even for a mutation), WebSockets kept for an hour. Nothing is retried once a replica has seen the request: whether
 * a killed replica committed a write is the client's question (idempotency keys), not the balancer's.
 */
export function haproxyConfig(pools: Record<string, Pool>, statsPort: number): string {
  const lines = [
    "global",
    "  maxconn 4096",
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout client 60s",
    "  timeout server 60s",
    "  timeout http-request 10s",
    "  timeout http-keep-alive 60s",
    "  timeout tunnel 1h",
    "  option redispatch 1",
    "  retries 3",
    "  retry-on conn-failure",
    "  option httpchk GET /health/ready",
    // A check may take a while on a busy machine; a replica that is merely slow must not be taken out with the other.
    "  timeout check 3s",
    "  default-server check inter 1s fall 2 rise 2",
  ];
  // The balancer's own view of each replica (UP, DOWN), read by the test before it stops the next one.
  lines.push("frontend stats", `  bind 127.0.0.1:${statsPort}`, "  stats enable", "  stats uri /stats", "  option dontlog-normal");
  for (const [name, pool] of Object.entries(pools)) {
    lines.push(`frontend ${name}`, `  bind 127.0.0.1:${pool.port}`, `  default_backend ${name}-replicas`);
    lines.push(`backend ${name}-replicas`, "  balance roundrobin");
    for (const server of pool.servers) lines.push(`  server ${server.name} 127.0.0.1:${server.port}`);
  }
  return `${lines.join("\n")}\n`;
}

export interface LoadBalancer {
  /** Resolves once the balancer routes to this replica again (its checks passed), within `timeoutMs`. */
  waitUntilUp(server: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Debian's HAProxy in the foreground with that configuration; `stop` ends it. */
export async function startLoadBalancer(folder: string, pools: Record<string, Pool>, statsPort: number): Promise<LoadBalancer> {
  const file = join(folder, "haproxy.cfg");
  await writeFile(file, haproxyConfig(pools, statsPort));
  const child: ChildProcess = spawn(process.env.HAPROXY_PATH ?? "haproxy", ["-db", "-f", file], { stdio: "ignore" });
  await new Promise<void>((resolve, reject) => {
    child.once("error", (error) => reject(new Error(`HAProxy could not start (install Debian's haproxy or set HAPROXY_PATH): ${error.message}`)));
    child.once("spawn", () => resolve());
  });
  const statuses = async () => {
    const csv = await fetch(`http://127.0.0.1:${statsPort}/stats;csv`).then(
      (r) => r.text(),
      () => "",
    );
    // # pxname,svname,...,status (the 18th column)
    return new Map(
      csv
        .split("\n")
        .filter((line) => line && !line.startsWith("#"))
        .map((line) => {
          const fields = line.split(",");
          return [fields[1] ?? "", fields[17] ?? ""] as const;
        }),
    );
  };
  return {
    async waitUntilUp(server, timeoutMs = 120_000) {
      await pollUntil(`the balancer routing to ${server}`, statuses, (seen) => (seen.get(server) ?? "").startsWith("UP"), { timeoutMs, intervalMs: 250 });
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}

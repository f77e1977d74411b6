import type { Server } from "node:http";

/**
 * `SHUTDOWN_DRAIN_SECONDS`: how long a stopping deployable lets requests it already accepted
 * finish before it cuts their connections. Kubernetes waits 30 s between SIGTERM and SIGKILL by
 * default, so the default leaves room for the rest of the shutdown. @default 10 // seconds
 */
export function shutdownDrainMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SHUTDOWN_DRAIN_SECONDS;
  if (raw === undefined || raw === "") return 10_000;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0) throw new Error(`SHUTDOWN_DRAIN_SECONDS must be a non-negative number; got ${JSON.stringify(raw)}.`);
  return seconds * 1000;
}

/**
 * Stops taking connections, closes the idle keep-alive ones at once, lets requests in flight finish
 * for up to `drainMs`, then cuts whatever is left. Resolves when the server is closed.
 */
export function closeHttpServer(server: Server, drainMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const cut = setTimeout(() => server.closeAllConnections(), drainMs);
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}

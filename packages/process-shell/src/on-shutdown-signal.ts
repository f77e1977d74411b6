import { shutdownDrainMs } from "./close-http-server.js";
import type { Logger } from "./logger.js";

/**
 * How long past the drain time a shutdown may take before the process exits anyway: room for
 * closing subscriptions, pools and the trace exporter. @default 5_000 // 5 seconds
 */
export const shutdownGraceMs = 5_000;

/**
 * Graceful shutdown: on SIGTERM (an orchestrator stopping the pod) or SIGINT (Ctrl-C) the
 * deployable stops taking requests and finishes the running ones before it exits. A second
 * signal exits at once.
 *
 * Register it first, before the deployable starts: a process that is still starting (waiting for
 * its database, say) must stop on a signal too, and a process that is PID 1 in a container ignores
 * SIGTERM unless it handles it. `shutdown` then finds less to stop. Whatever `shutdown` waits on,
 * the process exits within `deadlineMs` (code 1 when the shutdown did not finish), so a dependency
 * that stopped answering cannot keep a stopping process alive until it is killed.
 */
export function onShutdownSignal(
  logger: Logger,
  shutdown: () => Promise<void>,
  /** @default SHUTDOWN_DRAIN_SECONDS + 5 s, in milliseconds */
  deadlineMs = shutdownDrainMs() + shutdownGraceMs,
): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, "shutting down");
    setTimeout(() => {
      logger.error({ signal, deadlineMs }, "shutdown did not finish in time; exiting");
      process.exit(1);
    }, deadlineMs).unref();
    shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", handle);
  process.on("SIGINT", handle);
}

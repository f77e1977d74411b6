import type { Logger } from "./logger.js";

/**
 * Graceful shutdown: on SIGTERM (an orchestrator stopping the pod) or SIGINT (Ctrl-C) the
 * deployable stops taking requests and finishes the running ones before it exits. A second
 * signal exits at once.
 */
export function onShutdownSignal(logger: Logger, shutdown: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, "shutting down");
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

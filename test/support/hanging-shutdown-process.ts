// A deployable whose shutdown never finishes (a pool waiting on a database that stopped
// answering, say), for the test that SIGTERM still ends the process within the drain time plus
// the grace. Logs "ready" once its signal handler is in place.
import { createLogger, onShutdownSignal } from "@compliance-graph/process-shell";

const logger = createLogger("hanging-shutdown");
onShutdownSignal(logger, () => new Promise<void>(() => {}));
// Keeps the event loop alive as a server would.
setInterval(() => {}, 60_000);
logger.info("ready");

import { createHttpServerShell, createLogger, onShutdownSignal, portInUseMessage } from "@compliance-graph/process-shell";
import { consoleDistDir } from "../index.js";
import { consoleRoute } from "./console-route.js";

/**
 * The console's own deployable (its container image): the built files under `/console/` with the headers of
 * `consoleRoute`, `/health/*` for the probes, a draining stop on SIGTERM. Any static web server would do with the
 * same headers; this one keeps them in one place (console-route.ts) and needs no second image to trust.
 *
 * `CONSOLE_PORT` (default 8081), `CONSOLE_HOST` (default 127.0.0.1), `CONSOLE_OIDC_ISSUER` (required: the realm the
 * officers sign in with), `CONSOLE_OIDC_CLIENT_ID` (default `compliance-graph-frontend`).
 */
const logger = createLogger("console");
const issuer = process.env.CONSOLE_OIDC_ISSUER;
if (!issuer) {
  logger.fatal("CONSOLE_OIDC_ISSUER is required: the URL of the identity provider's realm the officers sign in with.");
  process.exit(1);
}
const port = Number(process.env.CONSOLE_PORT ?? 8081);
const shell = createHttpServerShell({
  port,
  host: process.env.CONSOLE_HOST ?? "127.0.0.1",
  logger,
  // Static files read at start: nothing to wait for once listening.
  checkReady: async () => {},
  routes: consoleRoute(consoleDistDir, { issuer, ...(process.env.CONSOLE_OIDC_CLIENT_ID ? { clientId: process.env.CONSOLE_OIDC_CLIENT_ID } : {}) }),
});
onShutdownSignal(logger, () => shell.close());
try {
  logger.info({ url: await shell.listen() }, "console listening");
} catch (error) {
  const portTaken = portInUseMessage(error, { [port]: "CONSOLE_PORT" });
  if (!portTaken) throw error;
  logger.fatal(portTaken);
  process.exit(1);
}

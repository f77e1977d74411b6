import type { AddressInfo } from "node:net";
import { closeHttpServer, shutdownDrainMs } from "../close-http-server.js";
import { connectionLimitsFromEnv, type ConnectionLimits } from "../connection-limits.js";
import { createBoundedHttpServer } from "../create-bounded-http-server.js";
import { sendMetrics } from "./send-metrics.js";
import type { ServiceMetrics } from "./service-metrics.js";

/** Where a deployable serves `/metrics`: on its own port (`METRICS_PORT`) or beside its API. */
export interface MetricsExposure {
  /** A separate port for `/metrics` only; undefined: `/metrics` on the main port. */
  port: number | undefined;
  /** @default "127.0.0.1" */
  host: string;
}

/** `METRICS_PORT` and `METRICS_HOST`. */
export function metricsExposureFromEnv(env: NodeJS.ProcessEnv = process.env): MetricsExposure {
  const raw = env.METRICS_PORT;
  const port = raw === undefined || raw === "" ? undefined : Number(raw);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65_535))
    throw new Error(`METRICS_PORT must be a port number; got ${JSON.stringify(raw)}.`);
  return { port, host: env.METRICS_HOST ?? "127.0.0.1" };
}

/**
 * A listener that answers `GET /metrics` and nothing else: where operators keep the metrics off
 * the port an ingress exposes (the scrape then never passes the public edge).
 */
export async function startMetricsServer(
  metrics: ServiceMetrics,
  exposure: MetricsExposure & { port: number },
  limits: ConnectionLimits = connectionLimitsFromEnv(),
): Promise<{ url: string; close(): Promise<void> }> {
  // Bounded like the API's listener: a scrape port reachable by a slowloris would go blind first.
  const { server, drain } = createBoundedHttpServer(
    (request, response) => {
      if ((request.url ?? "").split("?")[0] === "/metrics" && request.method === "GET") return void sendMetrics(metrics, response);
      response.writeHead(404).end();
    },
    { limits },
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(exposure.port, exposure.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${exposure.host}:${port}/metrics`,
    close: () => {
      drain();
      return closeHttpServer(server, shutdownDrainMs());
    },
  };
}

import type { ServerResponse } from "node:http";
import type { ServiceMetrics } from "./service-metrics.js";

/** `GET /metrics` in the text exposition format. */
export async function sendMetrics(metrics: ServiceMetrics, response: ServerResponse): Promise<void> {
  const { contentType, body } = await metrics.exposition();
  response.writeHead(200, { "content-type": contentType, "cache-control": "no-store" });
  response.end(body);
}

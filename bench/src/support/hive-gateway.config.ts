import { defineConfig } from "@graphql-hive/gateway";

/**
 * Hive Gateway's configuration for the gateway comparison, read by its CLI
 * (`hive-gateway supergraph <file> --config-path <this file>`). Defaults everywhere except the
 * static per-subgraph `Authorization` header (Hive Gateway's `transportEntries.<name>.headers`)
 * carrying a valid internal token, and logs at `warn` so that logging costs the same as ours.
 *
 * `SUBGRAPH_AUTHORIZATION`: JSON object from subgraph name to the `Authorization` value.
 */
const authorization = JSON.parse(process.env.SUBGRAPH_AUTHORIZATION ?? "{}") as Record<string, string>;

export const gatewayConfig = defineConfig({
  logging: "warn",
  transportEntries: Object.fromEntries(Object.entries(authorization).map(([name, value]) => [name, { headers: [["authorization", value]] }])),
});

import { defineConfig } from "@graphql-hive/gateway";
import { unifiedGraphHandler } from "@graphql-hive/router-runtime";

/**
 * Hive Gateway's configuration for the federation benchmark, read by its CLI
 * (`hive-gateway supergraph <file> --config-path <this file>`), one process (`--fork 1`), logs at
 * `warn`. Two switches, so that one file serves every Hive row:
 * - `BENCH_HIVE_ROUTER_RUNTIME=true`: the Rust query planner and its executor
 *   (`@graphql-hive/router-runtime`'s `unifiedGraphHandler`) instead of the JavaScript one;
 * - `BENCH_HIVE_INBOUND_SHARING=true`: one execution shared among identical requests in flight
 *   (`inboundInflightRequestDeduplication`), as the public benchmark runs it.
 */
export const gatewayConfig = defineConfig({
  logging: "warn",
  ...(process.env.BENCH_HIVE_ROUTER_RUNTIME === "true" ? { unifiedGraphHandler } : {}),
  ...(process.env.BENCH_HIVE_INBOUND_SHARING === "true" ? { inboundInflightRequestDeduplication: true } : {}),
});

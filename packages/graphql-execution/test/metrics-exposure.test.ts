import { buildSchema } from "graphql";
import { createIdentityDoor } from "@compliance-graph/identity";
import { afterEach, describe, expect, it } from "vitest";
import { BoundedLabel, createLogger, metricsExposureFromEnv } from "@compliance-graph/process-shell";
import { startSubgraphServer, type RunningSubgraphServer } from "../src/index.js";

const schema = buildSchema("type Query { hello: String }");

function start(metricsExposure?: { port: number | undefined; host: string }) {
  const logger = createLogger("probe", "silent");
  return startSubgraphServer({
    name: "probe",
    schema,
    port: 0,
    production: false,
    identity: createIdentityDoor({ subgraph: "probe", insecureDevelopmentIdentity: true, production: false, logger }),
    createContext: () => ({}),
    checkReady: async () => {},
    logger,
    ...(metricsExposure ? { metricsExposure } : {}),
  });
}

describe("where /metrics is served", () => {
  let server: RunningSubgraphServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("beside the API by default, counting the requests it answered", async () => {
    server = await start();
    const base = server.url.replace(/\/graphql$/, "");
    expect(server.metricsUrl).toBe(`${base}/metrics`);
    await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "query Hello { hello }" }),
    });
    const text = await (await fetch(server.metricsUrl)).text();
    expect(text).toMatch(/^http_requests_total\{route="\/graphql",method="POST",status="200",service="probe"\} 1$/m);
    expect(text).toMatch(/^graphql_operations_total\{operation_name="Hello",operation_type="query",outcome="ok",service="probe"\} 1$/m);
  });

  it("only on METRICS_PORT when one is set: the API port answers 404 for /metrics", async () => {
    server = await start({ port: 0, host: "127.0.0.1" });
    const base = server.url.replace(/\/graphql$/, "");
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    expect(server.metricsUrl).not.toBe(`${base}/metrics`);
    const response = await fetch(server.metricsUrl);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^process_cpu_seconds_total/m);
  });

  it("reads METRICS_PORT and refuses what is not a port", () => {
    expect(metricsExposureFromEnv({})).toEqual({ port: undefined, host: "127.0.0.1" });
    expect(metricsExposureFromEnv({ METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0" })).toEqual({ port: 9464, host: "0.0.0.0" });
    expect(() => metricsExposureFromEnv({ METRICS_PORT: "http" })).toThrow(/METRICS_PORT must be a port number/);
  });
});

describe("a label whose values come from callers", () => {
  it("keeps the first values and folds the rest, and anything that is not a GraphQL name, into other", () => {
    const label = new BoundedLabel(2);
    expect([label.valueOf("A"), label.valueOf("B"), label.valueOf("C"), label.valueOf("A"), label.valueOf(undefined), label.valueOf('x"} 1\nevil')]).toEqual([
      "A",
      "B",
      "other",
      "A",
      "anonymous",
      "other",
    ]);
  });
});

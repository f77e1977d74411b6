import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, freePort, pollUntil } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";
import { awaitLive } from "../subscriptions/support/await-live.js";
import { proofWriterOn } from "../subscriptions/support/proof-writer.js";
import { modernClient, subscribeModern, wsUrl } from "../subscriptions/support/subscription-clients.js";

/**
 * The metrics as an operator's Prometheus sees them: each deployable's `/metrics` passes
 * `promtool check metrics`, and a real Prometheus server (Debian's `prometheus`, installed by
 * .ci/run) scrapes all three and answers queries with the values the traffic of this test made.
 */
const prometheusBinary = process.env.PROMETHEUS_PATH ?? "/usr/bin/prometheus";
const promtoolBinary = process.env.PROMTOOL_PATH ?? "/usr/bin/promtool";

/** `promtool check metrics` on one exposition; resolves with its complaints (none: ""). */
function promtoolCheck(exposition: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(promtoolBinary, ["check", "metrics"], { stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
    child.stdin.end(exposition);
  });
}

describe("metrics scraped by a real Prometheus", () => {
  let stack: Stack;
  let token: string;
  let prometheus: ChildProcess | undefined;
  let prometheusUrl: string;
  let folder: string;
  const targets: Record<string, string> = {};

  const query = async (promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> => {
    const response = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await response.json()) as { status: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
    expect(body.status).toBe("success");
    return body.data.result;
  };
  const valueOf = async (promql: string) => Number((await query(promql))[0]?.value[1] ?? Number.NaN);
  /** Waits until Prometheus has scraped values that satisfy `check` (it scrapes every second). */
  const eventually = (promql: string, check: (value: number) => boolean) =>
    pollUntil(promql, () => valueOf(promql), check, { timeoutMs: 30_000, intervalMs: 500 });

  beforeAll(async () => {
    await promisify(execFile)(prometheusBinary, ["--version"]).catch(() => {
      throw new Error(`Prometheus is not installed at ${prometheusBinary}: install Debian's prometheus package (.ci/run does) or set PROMETHEUS_PATH.`);
    });
    const databaseUrl = await createTestDatabase("metrics");
    stack = await startStack({ realAopd: { databaseUrl, seedDemoProofs: 20, config: { expiryIntervalSeconds: 1 } } });
    token = await stack.fetchToken();
    targets.gateway = stack.gateway.metricsUrl;
    targets.aopd = stack.subgraphUrls.aopd.replace(/\/graphql$/, "/metrics");
    targets.trpd = stack.subgraphUrls.trpd.replace(/\/graphql$/, "/metrics");

    folder = await mkdtemp(join(tmpdir(), "cg-prometheus-"));
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    const scrapeConfigs = Object.entries(targets).map(([job, url]) => {
      const { host } = new URL(url);
      return `  - job_name: ${job}\n    scrape_interval: 1s\n    metrics_path: /metrics\n    static_configs:\n      - targets: ["${host}"]`;
    });
    await writeFile(join(folder, "prometheus.yml"), `global:\n  scrape_interval: 1s\nscrape_configs:\n${scrapeConfigs.join("\n")}\n`);
    prometheus = spawn(
      prometheusBinary,
      [`--config.file=${join(folder, "prometheus.yml")}`, `--storage.tsdb.path=${join(folder, "data")}`, `--web.listen-address=127.0.0.1:${port}`],
      { stdio: "ignore" },
    );
    await pollUntil(
      "Prometheus ready",
      () =>
        fetch(`${prometheusUrl}/-/ready`).then(
          (response) => response.ok,
          () => false,
        ),
      (up) => up,
      { intervalMs: 500 },
    );
  }, 60_000);
  afterAll(async () => {
    prometheus?.kill("SIGTERM");
    await stack?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("serves every deployable's metrics in the exposition format promtool accepts", async () => {
    for (const [name, url] of Object.entries(targets)) {
      const response = await fetch(url);
      expect(response.status, name).toBe(200);
      expect(response.headers.get("content-type"), name).toMatch(/^text\/plain; version=0\.0\.4/);
      const { code, output } = await promtoolCheck(await response.text());
      expect({ name, code, output }).toEqual({ name, code: 0, output: "" });
    }
  });

  it("keeps the metrics off /graphql: a GraphQL request cannot read them", async () => {
    const { body } = await stack.query("{ metrics }", token);
    expect(body.errors?.[0]?.extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });

  it("counts operations, subgraph fetches, token checks, proof events and signature checks as Prometheus reads them back", async () => {
    await eventually('count(up{job=~"gateway|aopd|trpd"} == 1)', (value) => value === 3);
    const page = "query MetricsPage { aopd { proofs(limit: 3) { id travelRuleTransfers { direction } } } }";
    for (let index = 0; index < 5; index += 1) expect((await stack.query(page, token)).body.errors).toBeUndefined();
    expect((await stack.query(page, "not-a-token")).status).toBe(401);
    const request = await stack.query(
      'mutation MetricsRequest { aopd { requestAoppProof(input: { customerId: "metrics", asset: DTI4H95J0R2X }) { portalUrl } } }',
      token,
    );
    const portalUrl = (request.body.data?.aopd as { requestAoppProof: { portalUrl: string } }).requestAoppProof.portalUrl;
    const credential = portalUrl.split("/").pop() as string;
    const refused = await fetch(`${stack.subgraphUrls.aopd.replace(/\/graphql$/, "")}/portal/api/proof/${credential}/signature`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      // Well formed (65 bytes, base64) but made by no key: the verification runs and refuses it.
      body: JSON.stringify({
        address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        signature: Buffer.concat([Buffer.from([31]), Buffer.alloc(64, 7)]).toString("base64"),
      }),
    });
    expect(refused.status).toBe(400);

    expect(
      await eventually('sum(graphql_operations_total{job="gateway",operation_name="MetricsPage",operation_type="query",outcome="ok"})', (value) => value === 5),
    ).toBe(5);
    expect(await eventually('sum(gateway_subgraph_fetches_total{subgraph="trpd",outcome="ok"})', (value) => value >= 5)).toBeGreaterThanOrEqual(5);
    expect(await eventually('sum(gateway_token_verifications_total{outcome!~"ok|cached|unavailable"})', (value) => value >= 1)).toBeGreaterThanOrEqual(1);
    expect(await eventually('sum(http_requests_total{job="gateway",route="/graphql",status="401"})', (value) => value >= 1)).toBeGreaterThanOrEqual(1);
    expect(await eventually('sum(aopd_proof_events_total{change="CREATED",kind="signature",status="PENDING"})', (value) => value === 1)).toBe(1);
    expect(await eventually('sum(aopd_signature_verifications_total{result!="verified"})', (value) => value === 1)).toBe(1);
    expect(
      await eventually('max(aopd_db_pool_connections{state="idle"}) + max(aopd_db_pool_connections{state="in_use"})', (value) => value >= 1),
    ).toBeGreaterThanOrEqual(1);
    // The queue is the whole server's: other databases' tests may hold a few notifications in it at this instant.
    const queueUsage = await eventually("max(aopd_notification_queue_usage_ratio)", (value) => value >= 0);
    expect(queueUsage).toBeGreaterThanOrEqual(0);
    expect(queueUsage).toBeLessThan(0.01);
    expect(await eventually('sum(graphql_operation_duration_seconds_count{job="gateway",operation_name="MetricsPage"})', (value) => value === 5)).toBe(5);
  });

  it("counts WebSocket connections, subscriptions and delivered events, key fetches, exports and expiry passes", async () => {
    const client = modernClient(wsUrl(stack.gateway.url), token);
    try {
      const received = subscribeModern(client, "subscription { aopdProofs { id } }");
      const writer = proofWriterOn(stack.aopdServices!.db);
      await awaitLive(writer, received, { customerId: "metrics-ws" });
      expect(await eventually('sum(gateway_websocket_connections{protocol="graphql-transport-ws"})', (value) => value === 1)).toBe(1);
      expect(await eventually('sum(gateway_subscriptions{protocol="graphql-transport-ws"})', (value) => value === 1)).toBe(1);
      expect(await eventually("sum(gateway_subscription_events_delivered_total)", (value) => value >= 1)).toBeGreaterThanOrEqual(1);
    } finally {
      await client.dispose();
    }
    expect(await eventually('sum(gateway_websocket_connections{protocol="graphql-transport-ws"}) or vector(0)', (value) => value === 0)).toBe(0);
    expect(await eventually('sum(gateway_jwks_fetches_total{outcome="ok"})', (value) => value >= 1)).toBeGreaterThanOrEqual(1);

    const exported = await stack.query('{ aopd { proofsAsXlsx(filter: { is: { any: { customerId: { eq: "metrics" } } } }) } }', token);
    expect(exported.body.errors).toBeUndefined();
    expect(await eventually("sum(aopd_export_rows_total)", (value) => value === 1)).toBe(1);
    expect(await eventually("sum(aopd_export_bytes_total)", (value) => value > 1_000)).toBeGreaterThan(1_000);
    expect(await eventually('sum(aopd_expiry_runs_total{outcome="ok"})', (value) => value >= 1)).toBeGreaterThanOrEqual(1);
  });

  it("bounds operation names: a client inventing names ends up in one `other` series", async () => {
    for (let index = 0; index < 120; index += 1) await stack.query(`query Invented${index} { __typename }`, token);
    const names = await query('count(count by (operation_name) (graphql_operations_total{job="gateway"}))');
    // At most the first 100 names, `other` and `anonymous` (the unnamed operations of earlier tests).
    expect(Number(names[0]?.value[1] ?? 0)).toBeLessThanOrEqual(102);
    expect(await eventually('sum(graphql_operations_total{job="gateway",operation_name="other"})', (value) => value >= 19)).toBeGreaterThanOrEqual(19);
  });
});

/**
 * Two gateway replicas behind one load balancer hold a client's quota in total, counted in one
 * PostgreSQL database (`GATEWAY_QUOTA_DATABASE_URL`): a caller that spreads its requests over the
 * replicas gets no more than the quota, while no request waits for the database.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type GatewayOptions, type RunningGateway } from "@compliance-graph/gateway";
import { createLogger } from "@compliance-graph/process-shell";
import { createTestDatabase, pollUntil, postGraphQL } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";

const query = "{ __typename }";

describe("quotas shared by replicas", () => {
  let stack: Stack;
  let second: RunningGateway;
  let database: pg.Client;
  let token: string;

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase("quota-sharing");
    const quotas: GatewayOptions["quotas"] = {
      defaults: { clientRequests: 10, windowSeconds: 86_400 },
      clients: {},
      databaseUrl,
      replicas: 2,
      syncIntervalMs: 50,
    };
    stack = await startStack({ quotas });
    second = await startGateway({
      port: 0,
      production: false,
      supergraph: { path: stack.supergraphPath },
      subgraphUrls: stack.subgraphUrls,
      oidc: { issuer: stack.idp.issuer, audience: stack.idp.audience },
      internalToken: { privateJwk: stack.internalKey.privateJwk },
      quotas,
      logger: createLogger("gateway", "silent"),
    });
    database = new pg.Client({ connectionString: databaseUrl });
    await database.connect();
    token = await stack.fetchToken();
  });
  afterAll(async () => {
    await database?.end();
    await second?.close();
    await stack?.close();
  });

  const statusAt = async (gateway: RunningGateway) => (await postGraphQL(gateway.url, query, token)).status;
  const syncsOf = async (gateway: RunningGateway) => {
    const text = await (await fetch(gateway.metricsUrl)).text();
    const line = text.split("\n").find((row) => row.startsWith("gateway_quota_syncs_total{") && row.includes('outcome="ok"'));
    return line ? Number(line.split(" ").at(-1)) : 0;
  };
  const usedInDatabase = async () => {
    const { rows } = await database
      .query<{ used: string }>("SELECT used FROM gateway_quota_usage WHERE key LIKE 'clientRequests % 14:dev-api-client'")
      .catch(() => ({ rows: [] as { used: string }[] }));
    return rows.reduce((sum, row) => sum + Number(row.used), 0);
  };

  it("admits the quota once in total across two gateways", async () => {
    const first = stack.gateway;
    for (let index = 0; index < 6; index += 1) expect(await statusAt(first)).toBe(200);
    await pollUntil("the first gateway's 6 requests in the database", usedInDatabase, (used) => used === 6, { timeoutMs: 30_000, intervalMs: 50 });
    // Two syncs of the second gateway: the later one began after the first gateway's count was written.
    const before = await syncsOf(second);
    await pollUntil(
      "two syncs of the second gateway",
      () => syncsOf(second),
      (syncs) => syncs >= before + 2,
      { timeoutMs: 30_000, intervalMs: 50 },
    );

    const atSecond: number[] = [];
    for (let index = 0; index < 5; index += 1) atSecond.push(await statusAt(second));
    // Each replica alone (GATEWAY_QUOTA_REPLICAS without a database) would allow 5; together they allow 10.
    expect(atSecond).toEqual([200, 200, 200, 200, 429]);
    await pollUntil("every admitted request in the database", usedInDatabase, (used) => used === 10, { timeoutMs: 30_000, intervalMs: 50 });
    const firstSyncs = await syncsOf(first);
    await pollUntil(
      "two syncs of the first gateway",
      () => syncsOf(first),
      (syncs) => syncs >= firstSyncs + 2,
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    expect(await statusAt(first)).toBe(429);
    expect(await usedInDatabase()).toBe(10);
  });
});

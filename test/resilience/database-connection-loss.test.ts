import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BenchProcess, createTestDatabase, freePort, startProcess } from "@compliance-graph/test-kit";

/**
 * aopd as it runs in production (its own process, on a PostgreSQL server) when the server drops
 * its connections: a restart, a failover or an operator's pg_terminate_backend. The process must
 * stay up and serve again without a restart of its own.
 */
describe("aopd when PostgreSQL drops its connections", () => {
  let aopd: BenchProcess;
  let base: string;
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase("connloss");
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    aopd = await startProcess(
      "subgraphs/aopd/src/main.ts",
      { AOPD_PORT: String(port), DATABASE_URL: databaseUrl, AOPD_EXPIRY_INTERVAL_SECONDS: "0", LOG_LEVEL: "silent", INSECURE_DEVELOPMENT_IDENTITY: "true" },
      `${base}/health/ready`,
    );
  });
  afterAll(async () => {
    await aopd?.stop();
  });

  const proofsCount = async () => {
    const response = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ aopd { proofsCount } }" }),
    });
    return { status: response.status, body: (await response.json()) as { data?: { aopd: { proofsCount: number } }; errors?: unknown[] } };
  };

  it("survives the loss of every pooled and listening connection and answers again", async () => {
    // Fill the pool with idle connections first.
    await Promise.all(Array.from({ length: 5 }, () => proofsCount()));
    const exited = new Promise<number | null>((resolve) => aopd.child.once("exit", resolve));
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    const { rowCount } = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    await admin.end();
    expect(rowCount).toBeGreaterThan(1);
    // Before the fix the process died of an unhandled 'error' event here; now the next queries succeed.
    let answer = await proofsCount();
    for (let attempt = 0; attempt < 20 && answer.body.errors; attempt += 1) answer = await proofsCount();
    expect(answer.body).toEqual({ data: { aopd: { proofsCount: 0 } } });
    expect((await fetch(`${base}/health/ready`)).status).toBe(200);
    expect(await Promise.race([exited, Promise.resolve("running")])).toBe("running");
    expect(aopd.child.exitCode).toBeNull();
  });
});

import pg from "pg";
import { inject } from "vitest";

let counter = 0;

/**
 * Creates a database on the PostgreSQL server that belongs to this test run (it is dropped when the
 * run ends) and returns its connection string. Each suite takes its own, so suites running in
 * parallel never share rows.
 */
export async function createTestDatabase(label: string): Promise<string> {
  const runId = inject("testRunId");
  const adminUrl = inject("postgresAdminUrl");
  counter += 1;
  const name = `${runId}_${label
    .replace(/[^a-z0-9]/gi, "")
    .toLowerCase()
    .slice(0, 20)}_${process.pid}_${counter}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

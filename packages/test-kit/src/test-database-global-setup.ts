import pg from "pg";

/**
 * Every test run gets a database of its own on the PostgreSQL server, so that runs never see each
 * other's rows and a crashed run leaves nothing that breaks the next. Suites that need isolation
 * from each other create further databases through `createTestDatabase` (see postgres-server.ts).
 */
const adminUrl = process.env.TEST_POSTGRES_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export default async function setup({ provide }: { provide: (key: string, value: unknown) => void }) {
  const runId = `cg_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${runId}`);
  await admin.end();
  provide("testRunId", runId);
  provide("postgresAdminUrl", adminUrl);
  return async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [`${runId}%`]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await client.end();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    testRunId: string;
    postgresAdminUrl: string;
  }
}

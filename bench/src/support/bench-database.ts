import pg from "pg";
import { migrateToLatest, openDatabase, seedProofs, type Database } from "@compliance-graph/aopd";

const adminUrl = process.env.BENCH_POSTGRES_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export function benchDatabaseUrl(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** An empty benchmark database (dropped first if it exists); returns its URL. */
export async function freshBenchDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return benchDatabaseUrl(name);
}

/**
 * A benchmark database with exactly `count` seeded proofs (seed 1). It is kept between runs and
 * re-seeded only when its row count differs, since seeding a million rows takes a while.
 */
export async function ensureSeededDatabase(name: string, count: number): Promise<{ url: string; seededSeconds: number | undefined }> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const exists = (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
  await admin.end();
  const url = benchDatabaseUrl(name);
  if (exists) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const current = await client.query<{ count: string }>("SELECT count(*) FROM aopd_proof").catch(() => ({ rows: [{ count: "-1" }] }));
    await client.end();
    if (Number(current.rows[0]?.count) === count) return { url, seededSeconds: undefined };
  }
  await freshBenchDatabase(name);
  const database: Database = await openDatabase({ databaseUrl: url });
  try {
    await migrateToLatest(database.db);
    const started = performance.now();
    await seedProofs(database, { count, seed: 1 });
    const seededSeconds = (performance.now() - started) / 1000;
    await database.pool!.query("VACUUM ANALYZE aopd_proof");
    return { url, seededSeconds };
  } finally {
    await database.close();
  }
}

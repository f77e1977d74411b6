import pg from "pg";
import { migrateToLatest, openDatabase, seedProofs, type Database } from "@compliance-graph/aopd/internals";

const adminUrl = process.env.BENCH_POSTGRES_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/**
 * `BENCH_DATABASE_SUFFIX`: appended to every benchmark database's name, so that engineers sharing one
 * PostgreSQL server do not drop or re-seed each other's databases in the middle of a run. @default ""
 */
const suffix = (process.env.BENCH_DATABASE_SUFFIX ?? "").replace(/[^a-z0-9_]/gi, "_");
const named = (name: string) => `${name}${suffix}`;

/** The URL of the benchmark database `name` (with `BENCH_DATABASE_SUFFIX`). */
export function benchDatabaseUrl(name: string): string {
  return databaseUrlOf(named(name));
}

function databaseUrlOf(fullName: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${fullName}`;
  return url.toString();
}

/** An empty benchmark database (dropped first if it exists); returns its URL. */
export async function freshBenchDatabase(base: string): Promise<string> {
  const name = named(base);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return databaseUrlOf(name);
}

/**
 * A benchmark database with exactly `count` seeded proofs (seed 1). It is kept between runs and
 * re-seeded only when its row count differs, since seeding a million rows takes a while.
 */
export async function ensureSeededDatabase(base: string, count: number): Promise<{ url: string; seededSeconds: number | undefined }> {
  const name = named(base);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const exists = (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
  await admin.end();
  const url = databaseUrlOf(name);
  if (exists) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const current = await client.query<{ count: string }>("SELECT count(*) FROM aopd_proof").catch(() => ({ rows: [{ count: "-1" }] }));
    await client.end();
    if (Number(current.rows[0]?.count) === count) return { url, seededSeconds: undefined };
  }
  await freshBenchDatabase(base);
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

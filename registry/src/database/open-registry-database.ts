import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGliteDialect } from "@compliance-graph/pglite-dialect";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { RegistryDatabase } from "./registry-database-schema.js";
import { migrateRegistry } from "./migrate-registry.js";

export interface RegistryDatabaseOptions {
  /** `REGISTRY_DATABASE_URL`: a PostgreSQL connection string; when absent, embedded PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite's folder (`memory://` keeps it in memory). @default ".data/registry" */
  dataDir?: string | undefined;
  /** Longest statement on the server, so that no request waits on the store without end. @default 15_000 // milliseconds */
  statementTimeoutMs?: number;
  /** Longest wait for a connection. @default 5_000 // milliseconds */
  connectTimeoutMs?: number;
}

export interface OpenRegistryDatabase {
  db: Kysely<RegistryDatabase>;
  driver: "postgres" | "pglite";
  close(): Promise<void>;
}

/** Opens and migrates the registry's store: PostgreSQL when a URL is given, embedded PGlite otherwise. */
export async function openRegistryDatabase(options: RegistryDatabaseOptions = {}): Promise<OpenRegistryDatabase> {
  let opened: OpenRegistryDatabase;
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 5,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      statement_timeout: options.statementTimeoutMs ?? 15_000,
      idle_in_transaction_session_timeout: 30_000,
    });
    // An idle connection the server drops must not end the process: the pool opens another.
    pool.on("error", () => {});
    const db = new Kysely<RegistryDatabase>({ dialect: new PostgresDialect({ pool }) });
    opened = { db, driver: "postgres", close: () => db.destroy() };
  } else {
    const dataDir = options.dataDir ?? ".data/registry";
    if (!dataDir.includes("://")) mkdirSync(dirname(dataDir), { recursive: true });
    const pglite = await PGlite.create(dataDir);
    const db = new Kysely<RegistryDatabase>({ dialect: new PGliteDialect(pglite) });
    opened = {
      db,
      driver: "pglite",
      close: async () => {
        await db.destroy();
        await pglite.close();
      },
    };
  }
  try {
    await migrateRegistry(opened.db);
  } catch (error) {
    await opened.close();
    throw error;
  }
  return opened;
}

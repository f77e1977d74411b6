import { createTestDatabase } from "@compliance-graph/test-kit";
import type { DatabaseTimeouts } from "../../src/database/database-timeouts.js";
import { migrateToLatest } from "../../src/database/migrate-to-latest.js";
import { openDatabase, type Database } from "../../src/database/open-database.js";

/** Every database suite runs on both: the PostgreSQL server and embedded PGlite. */
export const databaseDrivers = ["postgres", "pglite"] as const;
export type DatabaseDriver = (typeof databaseDrivers)[number];

/** A migrated, empty database of its own for one suite; on the server, bounded by `timeouts` when given, as the deployable's is. */
export async function openTestDatabase(driver: DatabaseDriver, label: string, timeouts?: DatabaseTimeouts): Promise<Database & { databaseUrl?: string }> {
  const databaseUrl = driver === "postgres" ? await createTestDatabase(label) : undefined;
  const database = await openDatabase(databaseUrl ? { databaseUrl, maxConnections: 4, timeouts } : { dataDir: "memory://" });
  await migrateToLatest(database.longRunning);
  return Object.assign(database, { databaseUrl });
}

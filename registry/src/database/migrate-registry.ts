import { Migrator, type Kysely, type Migration, type MigrationProvider } from "kysely";
import * as createRegistryTables from "./migrations/0001-create-registry-tables.js";
import * as recordOwnerChanges from "./migrations/0002-record-owner-changes.js";

/** The registry's migrations, in order; listed rather than read from a folder, as aopd's are. */
export const registryMigrations: Readonly<Record<string, Migration>> = {
  "0001-create-registry-tables": createRegistryTables,
  "0002-record-owner-changes": recordOwnerChanges,
};

class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return { ...registryMigrations };
  }
}

/** Applies every pending migration; Kysely's lock lets replicas start together. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateRegistry(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: new StaticMigrationProvider(),
    migrationTableName: "registry_migration",
    migrationLockTableName: "registry_migration_lock",
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((result) => result.status === "Success").map((result) => result.migrationName);
}

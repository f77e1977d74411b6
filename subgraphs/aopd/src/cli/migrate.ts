import { aopdConfigFromEnv } from "../aopd-config-from-env.js";
import { migrateToLatest } from "../database/migrate-to-latest.js";
import { openDatabase } from "../database/open-database.js";

/** `npm run migrate`: applies pending migrations to the configured database (also done at start-up). */
const config = aopdConfigFromEnv();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const applied = await migrateToLatest(database.db);
  console.log(applied.length > 0 ? `applied: ${applied.join(", ")}` : "the database is up to date");
} finally {
  await database.close();
}

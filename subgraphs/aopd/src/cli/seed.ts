import { parseArgs } from "node:util";
import { aopdConfigFromEnv } from "../aopd-config.js";
import { migrateToLatest } from "../database/migrate-to-latest.js";
import { openDatabase } from "../database/open-database.js";
import { seedProofs } from "../seed/seed-proofs.js";

/** `npm run seed -- --count N [--seed S]`: writes N demo proofs into the configured database. */
const { values } = parseArgs({ options: { count: { type: "string", default: "1000" }, seed: { type: "string", default: "1" } } });
const count = Number(values.count);
if (!Number.isSafeInteger(count) || count < 1) {
  console.error("--count must be a positive integer");
  process.exit(2);
}
const config = aopdConfigFromEnv();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrateToLatest(database.db);
  const started = performance.now();
  await seedProofs(database, { count, seed: Number(values.seed) });
  const seconds = (performance.now() - started) / 1000;
  console.log(`seeded ${count} proofs into ${database.driver} in ${seconds.toFixed(1)} s (${Math.round(count / seconds)} rows/s)`);
} finally {
  await database.close();
}

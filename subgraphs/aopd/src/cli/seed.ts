import { parseArgs } from "node:util";
import { aopdConfigFromEnv } from "../aopd-config-from-env.js";
import { migrateToLatest } from "../database/migrate-to-latest.js";
import { openDatabase } from "../database/open-database.js";
import { SeedAlreadyUsedError } from "../seed/seed-already-used-error.js";
import { firstUnusedSeed, seedProofs } from "../seed/seed-proofs.js";

/**
 * `npm run seed -- --count N [--seed S]`: writes N demo proofs into the configured database.
 * Without `--seed` it takes the first seed whose proofs are not there yet, so it adds proofs to a
 * database `npm start` already seeded instead of colliding with them.
 */
const { values } = parseArgs({ options: { count: { type: "string", default: "1000" }, seed: { type: "string" } } });
const count = Number(values.count);
if (!Number.isSafeInteger(count) || count < 1) {
  console.error("--count must be a positive integer");
  process.exit(2);
}
const requestedSeed = values.seed === undefined ? undefined : Number(values.seed);
if (requestedSeed !== undefined && !Number.isSafeInteger(requestedSeed)) {
  console.error("--seed must be an integer");
  process.exit(2);
}
const config = aopdConfigFromEnv();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrateToLatest(database.db);
  const seed = requestedSeed ?? (await firstUnusedSeed(database));
  const started = performance.now();
  await seedProofs(database, { count, seed });
  const seconds = (performance.now() - started) / 1000;
  console.log(`seeded ${count} proofs (seed ${seed}) into ${database.driver} in ${seconds.toFixed(1)} s (${Math.round(count / seconds)} rows/s)`);
} catch (error) {
  if (!(error instanceof SeedAlreadyUsedError)) throw error;
  console.error(error.message);
  process.exitCode = 2;
} finally {
  await database.close();
}

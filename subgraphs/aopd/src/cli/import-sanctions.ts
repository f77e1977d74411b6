import { parseArgs } from "node:util";
import { readSanctionsList, SanctionsListError } from "@compliance-graph/sanctions-lists";
import { aopdConfigFromEnv } from "../aopd-config-from-env.js";
import { migrateToLatest } from "../database/migrate-to-latest.js";
import { openDatabase } from "../database/open-database.js";
import { importSanctionsList } from "../screening/import-sanctions-list.js";

/**
 * `npm run import-sanctions -- [--published YYYY-MM-DD] <folder or file>...`: imports one version of
 * the OFAC SDN list into the configured database (`DATABASE_URL`, or the PGlite folder
 * `AOPD_DATA_DIR`) and re-screens every proof against it. Accepts a folder of per-asset
 * `sanctioned_addresses_<ASSET>.txt` lists (dated by `--published` or a folder named `...-YYYY-MM-DD`),
 * or OFAC's own `sdn.xml` or `sdn_advanced.xml`. Reports the version, what it added and removed
 * against the version before, and the proofs whose screening changed. Importing a version again
 * changes nothing. A PGlite folder is one process's: stop aopd before importing into it.
 */
const { values, positionals } = parseArgs({ options: { published: { type: "string" } }, allowPositionals: true });
const config = aopdConfigFromEnv();
let version;
try {
  version = await readSanctionsList(positionals, values.published === undefined ? {} : { publishedOn: values.published });
} catch (error) {
  if (!(error instanceof SanctionsListError)) throw error;
  console.error(error.message);
  process.exit(2);
}
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrateToLatest(database.longRunning);
  const started = performance.now();
  const report = await importSanctionsList(database.longRunning, config.assets, version);
  const seconds = ((performance.now() - started) / 1_000).toFixed(2);
  console.log(`${report.list} published ${report.publishedOn} (${report.source}), sha256 ${report.contentHash}`);
  if (report.alreadyImported) {
    console.log("already imported: nothing changed");
  } else {
    console.log(`${report.addresses} addresses, ${report.unmapped} on networks aopd does not have (kept, never matched)`);
    console.log(
      report.previousVersion
        ? `against ${report.previousVersion}: ${report.added.length} added, ${report.removed.length} removed`
        : "the first version imported",
    );
    if (report.previousVersion) {
      for (const entry of report.added) console.log(`  + ${entry.ofacAsset} ${entry.address}`);
      for (const entry of report.removed) console.log(`  - ${entry.ofacAsset} ${entry.address}`);
    }
    if (!report.newest) console.log(`older than ${report.previousVersion}: recorded, proofs stay screened against the newer version`);
    const listed = report.changes.filter((change) => change.to === "LISTED").length;
    console.log(
      `proofs re-screened in ${seconds} s: ${report.changes.length} changed (${listed} now LISTED, ${report.changes.length - listed} no longer LISTED or first screened)`,
    );
  }
} finally {
  await database.close();
}

import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { AssetRegistry, assetRegistryFile } from "../asset-registry.js";
import { importDtiRegistry } from "../import-dti-registry.js";

/** `npm run import-dti -- --file snapshot.json`: adds the snapshot's assets to the data file. */
const { values } = parseArgs({ options: { file: { type: "string" } } });
if (!values.file) {
  console.error("usage: npm run import-dti -- --file <DTI registry snapshot (JSON)>");
  process.exit(2);
}
const registry = AssetRegistry.load();
const result = importDtiRegistry(registry.assets, JSON.parse(readFileSync(values.file, "utf8")));
const data = JSON.parse(readFileSync(assetRegistryFile, "utf8")) as Record<string, unknown>;
writeFileSync(assetRegistryFile, `${JSON.stringify({ ...data, assets: result.assets }, null, 2)}\n`);
console.log(`added ${result.added.length} assets, skipped ${result.skipped.length} records`);
for (const skip of result.skipped.slice(0, 20)) console.log(`  skipped ${JSON.stringify(skip.dti)}: ${skip.reason}`);
console.log("Run `npm run generate` to regenerate the schemas.");

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { AssetRegistry, assetRegistryFile } from "../asset-registry.js";
import { importDtiRegistry } from "../import-dti-registry.js";

/**
 * `npm run import-dti [-- --file snapshot.json ...]`: merges DTI registry snapshots into the data
 * file and reports what it added, changed and skipped. Without `--file`, the snapshots kept in
 * `data/registry/`, oldest first (their names sort by date), so that later names win.
 */
const registryFolder = new URL("../../data/registry/", import.meta.url);
const { values } = parseArgs({ options: { file: { type: "string", multiple: true } } });
const files =
  values.file ??
  readdirSync(registryFolder)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => new URL(name, registryFolder).pathname);

const registry = AssetRegistry.load();
const result = importDtiRegistry(
  registry.assets,
  files.map((file) => JSON.parse(readFileSync(file, "utf8")) as unknown),
);
new AssetRegistry(result.assets); // refuses to write a list it could not load
const data = JSON.parse(readFileSync(assetRegistryFile, "utf8")) as Record<string, unknown>;
writeFileSync(
  assetRegistryFile,
  `{\n  "$comment": ${JSON.stringify(data.$comment)},\n  "assets": [\n${result.assets.map((asset) => `    ${JSON.stringify(asset)}`).join(",\n")}\n  ]\n}\n`,
);

console.log(`read ${files.join(", ")}`);
console.log(`added ${result.added.length}, changed ${result.changed.length}, now ${result.assets.length} assets`);
for (const { code, fields } of result.changed) {
  console.log(
    `  changed ${code}: ${Object.entries(fields)
      .map(([field, { from, to }]) => `${field} ${JSON.stringify(from)} -> ${JSON.stringify(to)}`)
      .join(", ")}`,
  );
}
for (const [reason, count] of Object.entries(result.skipped)) console.log(`  skipped ${count}: ${reason}`);
if (result.added.length + result.changed.length > 0) console.log("Run `npm run generate` to regenerate the schemas.");

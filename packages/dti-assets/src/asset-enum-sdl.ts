import type { AssetRegistry } from "./asset-registry.js";

/**
 * The GraphQL enum of the registry's assets, generated so that the list is written once (in the
 * data file) and never typed again in a schema.
 */
export function assetEnumSdl(registry: AssetRegistry, enumName: string, description: string): string {
  const values = registry.assets.map((asset) => {
    const label = [asset.name, asset.symbol ? `(${asset.symbol})` : "", asset.network ? `on ${asset.network}` : ""].filter(Boolean).join(" ");
    return `  ${JSON.stringify(label)}\n  ${asset.code}`;
  });
  return `${JSON.stringify(description)}\nenum ${enumName} {\n${values.join("\n")}\n}\n`;
}

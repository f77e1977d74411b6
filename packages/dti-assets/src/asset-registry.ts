import { readFileSync } from "node:fs";
import { addressFamilies, type AddressFamily, type DtiAsset } from "./dti-asset.js";
import { isDtiCode } from "./dti-code.js";

export const assetRegistryFile = new URL("../data/assets.json", import.meta.url);

/** The known assets, keyed by code; read once from the data file, which is the only list. */
export class AssetRegistry {
  readonly assets: readonly DtiAsset[];
  readonly #byCode: Map<string, DtiAsset>;
  #names: ReadonlyMap<string, string> | undefined;

  constructor(assets: readonly DtiAsset[]) {
    this.#byCode = new Map();
    for (const asset of assets) {
      validateAsset(asset);
      if (this.#byCode.has(asset.code)) throw new Error(`The asset ${asset.code} is listed twice.`);
      this.#byCode.set(asset.code, asset);
    }
    this.assets = [...assets].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  }

  static load(file: URL | string = assetRegistryFile): AssetRegistry {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as { assets?: unknown };
    if (!Array.isArray(parsed.assets)) throw new Error(`${String(file)} has no "assets" list.`);
    return new AssetRegistry(parsed.assets as DtiAsset[]);
  }

  /** Each asset's name by its code, as the XLSX export passes them to the database. */
  get names(): ReadonlyMap<string, string> {
    this.#names ??= new Map(this.assets.map((asset) => [asset.code, asset.name]));
    return this.#names;
  }

  get(code: string): DtiAsset | undefined {
    return this.#byCode.get(code);
  }

  has(code: string): boolean {
    return this.#byCode.has(code);
  }

  ofFamily(family: AddressFamily): DtiAsset[] {
    return this.assets.filter((asset) => asset.addressFamily === family);
  }
}

function validateAsset(asset: DtiAsset): void {
  if (typeof asset.code !== "string" || !isDtiCode(asset.code)) {
    throw new Error(`${JSON.stringify(asset.code)} is not a DTI code ("DTI" and 9 of the allowed symbols).`);
  }
  if (typeof asset.name !== "string" || asset.name.length === 0) throw new Error(`The asset ${asset.code} has no name.`);
  if (asset.decimals !== null && !(Number.isInteger(asset.decimals) && asset.decimals >= 0 && asset.decimals <= 30)) {
    throw new Error(`The asset ${asset.code} has invalid decimals ${String(asset.decimals)}.`);
  }
  for (const field of ["symbol", "network", "standard", "contract"] as const) {
    if (asset[field] !== null && typeof asset[field] !== "string") throw new Error(`The asset ${asset.code} has a ${field} that is neither text nor null.`);
  }
  if ((asset.standard === null) !== (asset.contract === null)) {
    throw new Error(`The asset ${asset.code} needs both a standard and a contract (a token) or neither (a native asset).`);
  }
  if (asset.addressFamily !== null && !addressFamilies.includes(asset.addressFamily)) {
    throw new Error(`The asset ${asset.code} has an unknown address family ${JSON.stringify(asset.addressFamily)}.`);
  }
}

export { type AddressFamily, type DtiAsset, addressFamilies } from "./dti-asset.js";
export { dtiCode, dtiSymbols, isDtiCode, isDtiIdentifier } from "./dti-code.js";
export { AssetRegistry, assetRegistryFile } from "./asset-registry.js";
export { assetEnumSdl } from "./asset-enum-sdl.js";
export { importDtiRegistry, type DtiImportResult } from "./import-dti-registry.js";

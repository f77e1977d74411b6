import type { DtiAsset } from "./dti-asset.js";
import { dtiCode, isDtiIdentifier } from "./dti-code.js";

/** The parts of a DTI Foundation registry record the importer reads. */
interface DtiRegistryRecord {
  Header?: { DTI?: unknown };
  Informative?: { LongName?: unknown; ShortNames?: unknown };
}

export interface DtiImportResult {
  assets: DtiAsset[];
  added: string[];
  /** Records skipped, with the reason, so an operator sees what the snapshot held that we refused. */
  skipped: { dti: unknown; reason: string }[];
}

/**
 * Merges a DTI Foundation registry snapshot (`{ records: [...] }`) into the known assets. Known
 * assets keep what was written by hand (network, decimals, address family); new ones get the
 * registry's name and short name and are left undescribed until someone fills that in.
 */
export function importDtiRegistry(existing: readonly DtiAsset[], snapshot: unknown): DtiImportResult {
  const records = (snapshot as { records?: unknown })?.records;
  if (!Array.isArray(records)) throw new Error('The snapshot has no "records" list.');
  const byCode = new Map(existing.map((asset) => [asset.code, asset]));
  const added: string[] = [];
  const skipped: DtiImportResult["skipped"] = [];
  for (const record of records as DtiRegistryRecord[]) {
    const dti = record?.Header?.DTI;
    if (typeof dti !== "string" || !isDtiIdentifier(dti)) {
      skipped.push({ dti, reason: "not a 9-character DTI of the allowed symbols" });
      continue;
    }
    const name = record.Informative?.LongName;
    if (typeof name !== "string" || name.trim() === "") {
      skipped.push({ dti, reason: "no long name" });
      continue;
    }
    const code = dtiCode(dti);
    if (byCode.has(code)) continue;
    byCode.set(code, { code, name: name.trim(), symbol: firstShortName(record.Informative?.ShortNames), network: null, decimals: null, addressFamily: null });
    added.push(code);
  }
  const assets = [...byCode.values()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return { assets, added, skipped };
}

/** The registry has held short names both as strings and as `{ ShortName }` objects. */
function firstShortName(shortNames: unknown): string | null {
  if (!Array.isArray(shortNames)) return null;
  for (const entry of shortNames) {
    const value = typeof entry === "string" ? entry : (entry as { ShortName?: unknown })?.ShortName;
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return null;
}

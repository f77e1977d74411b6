import type { DtiAsset } from "./dti-asset.js";
import { dtiCode, isDtiIdentifier } from "./dti-code.js";
import { knownDecimalsOf } from "./known-token-decimals.js";
import { nativeAssets, tokenNetworks } from "./supported-networks.js";

/** The parts of a DTI Foundation registry record the importer reads. */
interface DtiRegistryRecord {
  Header?: { DTI?: unknown };
  Informative?: { LongName?: unknown; ShortNames?: unknown };
  Normative?: { AuxiliaryDistributedLedger?: unknown; AuxiliaryMechanism?: unknown; AuxiliaryTechnicalReference?: unknown };
}

export interface DtiImportResult {
  assets: DtiAsset[];
  added: string[];
  /** Known assets the snapshots changed, with each changed field as it was and as it is now. */
  changed: { code: string; fields: Record<string, { from: unknown; to: unknown }> }[];
  /** Records left out, counted by reason, so an operator sees what the snapshots held that we refused. */
  skipped: Record<string, number>;
}

/**
 * Merges DTI Foundation registry snapshots (`{ records: [...] }`, oldest first) into the known
 * assets. Taken in: the native assets of the networks the specification names, and every token
 * whose record says it lives on one of them (ledger, standard and contract; the 2022 snapshot has
 * these, later ones dropped them). A record of a known asset without those fields still refreshes
 * its name and short name, which is how a names-only snapshot keeps names current. Assets in no
 * snapshot are kept as they are, and decimals set by hand survive unless the checked table knows
 * better. Running it again on the same snapshots changes nothing.
 */
export function importDtiRegistry(existing: readonly DtiAsset[], snapshots: readonly unknown[]): DtiImportResult {
  const before = new Map(existing.map((asset) => [asset.code, asset]));
  const merged = new Map(before);
  const skipped: Record<string, number> = {};
  const skip = (reason: string) => (skipped[reason] = (skipped[reason] ?? 0) + 1);

  for (const snapshot of snapshots) {
    const records = (snapshot as { records?: unknown })?.records;
    if (!Array.isArray(records)) throw new Error('A snapshot has no "records" list.');
    for (const record of records as DtiRegistryRecord[]) {
      const reason = mergeRecord(merged, record);
      if (reason) skip(reason);
    }
  }

  const assets = [...merged.values()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const added = assets.filter((asset) => !before.has(asset.code)).map((asset) => asset.code);
  const changed = assets.flatMap((asset) => {
    const old = before.get(asset.code);
    const fields = old ? changedFields(old, asset) : {};
    return Object.keys(fields).length > 0 ? [{ code: asset.code, fields }] : [];
  });
  return { assets, added, changed, skipped };
}

/** Merges one record; returns why it was left out, or undefined when it was taken in. */
function mergeRecord(assets: Map<string, DtiAsset>, record: DtiRegistryRecord): string | undefined {
  const dti = record?.Header?.DTI;
  if (typeof dti !== "string" || !isDtiIdentifier(dti)) return "not a 9-character DTI of the allowed symbols";
  const registryName = text(record.Informative?.LongName);
  if (registryName === null) return "no long name";
  const code = dtiCode(dti);
  const symbol = firstShortName(record.Informative?.ShortNames);
  const known = assets.get(code);

  const native = nativeAssets[dti];
  if (native) {
    const disagrees = !registryName.toLowerCase().includes(native.name.toLowerCase());
    const asset: DtiAsset = { code, ...native, standard: null, contract: null };
    if (disagrees) asset.registryName = registryName;
    assets.set(code, asset);
    return undefined;
  }

  const ledger = text(record.Normative?.AuxiliaryDistributedLedger);
  const mechanism = text(record.Normative?.AuxiliaryMechanism);
  if (ledger === null || mechanism === null) {
    if (!known) return "no ledger or standard, and not a known asset";
    assets.set(code, { ...known, name: registryName, symbol: symbol ?? known.symbol });
    return undefined;
  }
  const target = tokenNetworks[ledger]?.[mechanism];
  if (!target) return `${mechanism} on ledger ${ledger}: not a token standard of a network the specification names`;
  const contract = text(record.Normative?.AuxiliaryTechnicalReference);
  if (contract === null || !target.contract.test(contract)) return `${mechanism} token without ${target.contractMeaning}`;
  assets.set(code, {
    code,
    name: registryName,
    symbol,
    network: target.network,
    standard: mechanism,
    contract,
    decimals: knownDecimalsOf(target.network, contract) ?? known?.decimals ?? null,
    addressFamily: target.addressFamily,
  });
  return undefined;
}

function changedFields(old: DtiAsset, now: DtiAsset): Record<string, { from: unknown; to: unknown }> {
  const fields: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of new Set([...Object.keys(old), ...Object.keys(now)]) as Set<keyof DtiAsset>) {
    if (old[key] !== now[key]) fields[key] = { from: old[key], to: now[key] };
  }
  return fields;
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** The registry has held short names both as strings and as `{ ShortName }` objects. */
function firstShortName(shortNames: unknown): string | null {
  if (!Array.isArray(shortNames)) return null;
  for (const entry of shortNames) {
    const value = text(typeof entry === "string" ? entry : (entry as { ShortName?: unknown })?.ShortName);
    if (value !== null) return value;
  }
  return null;
}

import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AssetRegistry, importDtiRegistry, type DtiAsset } from "../src/index.js";

const registryFolder = new URL("../data/registry/", import.meta.url);
const committedSnapshots = readdirSync(registryFolder)
  .filter((name) => name.endsWith(".json"))
  .sort()
  .map((name) => JSON.parse(readFileSync(new URL(name, registryFolder), "utf8")) as unknown);

const bitcoin: DtiAsset = {
  code: "DTI4H95J0R2X",
  name: "Bitcoin",
  symbol: "BTC",
  network: "bitcoin",
  standard: null,
  contract: null,
  decimals: 8,
  addressFamily: "bitcoin",
};
const handAdded: DtiAsset = {
  code: "DTI1XS5NM2WN",
  name: "Hand-added",
  symbol: null,
  network: null,
  standard: null,
  contract: null,
  decimals: null,
  addressFamily: null,
};
const token = (dti: string, name: string, normative: Record<string, string>, shortName = "TOK") => ({
  Header: { DTI: dti },
  Informative: { LongName: name, ShortNames: [{ ShortName: shortName }] },
  Normative: normative,
});

describe("importing DTI Foundation registry snapshots", () => {
  it("changes nothing when run again on the snapshots the data file was built from (idempotent)", () => {
    const registry = AssetRegistry.load();
    const result = importDtiRegistry(registry.assets, committedSnapshots);
    expect([result.added, result.changed]).toEqual([[], []]);
    expect(result.assets).toEqual(registry.assets);
  });

  it("adds tokens of the spec's networks, takes later names, keeps what no snapshot mentions and reports every change", () => {
    const older = {
      records: [
        token(
          "V15WLZJMF",
          "Tether on Ethereum",
          { AuxiliaryDistributedLedger: "X9J9K872S", AuxiliaryMechanism: "ERC-20", AuxiliaryTechnicalReference: "0xdAC17F958D2ee523a2206206994597C13D831ec7" },
          "USDT",
        ),
        token("BDD0QL46R", "A BEP-20 token", {
          AuxiliaryDistributedLedger: "8N2VXJKB1",
          AuxiliaryMechanism: "BEP-20",
          AuxiliaryTechnicalReference: "0x13616f44ba82d63c8c0dc3ff843d36a8ec1c05a9",
        }),
        token("84G8LN2SF", "A Beacon Chain token", {
          AuxiliaryDistributedLedger: "8N2VXJKB1",
          AuxiliaryMechanism: "BEP-2",
          AuxiliaryTechnicalReference: "RUNE-B1A",
        }),
        token("FLQHLKTB1", "An SPL token", {
          AuxiliaryDistributedLedger: "20J63Z4N3",
          AuxiliaryMechanism: "SPL-Token",
          AuxiliaryTechnicalReference: "not base58 0OIl",
        }),
        token("M3Z631TN4", "A token elsewhere", {
          AuxiliaryDistributedLedger: "M3Z631TN4",
          AuxiliaryMechanism: "ERC-20",
          AuxiliaryTechnicalReference: "0x13616f44ba82d63c8c0dc3ff843d36a8ec1c05a9",
        }),
        { Header: { DTI: "AEIOU1234" }, Informative: { LongName: "Vowels" } },
      ],
    };
    const newer = {
      records: [
        { Header: { DTI: "V15WLZJMF" }, Informative: { LongName: "Tether USD", ShortNames: [{ ShortName: "USDT" }] } },
        { Header: { DTI: "NVVJ0PSWD" }, Informative: { LongName: "Cortex Coin" } },
        { Header: { DTI: "ZZZZZZZZZ" }, Informative: { LongName: "Unknown, without a ledger" } },
      ],
    };
    const result = importDtiRegistry([bitcoin, { ...handAdded }, { ...bitcoin, code: "DTIBDD0QL46R", name: "Old name", decimals: 18 }], [older, newer]);
    expect(result.added).toEqual(["DTINVVJ0PSWD", "DTIV15WLZJMF"]);
    const byCode = new Map(result.assets.map((asset) => [asset.code, asset]));
    expect(byCode.get("DTIV15WLZJMF")).toEqual({
      code: "DTIV15WLZJMF",
      name: "Tether USD",
      symbol: "USDT",
      network: "ethereum",
      standard: "ERC-20",
      contract: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
      decimals: 6,
      addressFamily: "ethereum",
    });
    expect(byCode.get("DTINVVJ0PSWD")).toMatchObject({ name: "Lightning Network", registryName: "Cortex Coin", addressFamily: "lightning" });
    expect(byCode.get("DTI1XS5NM2WN")).toEqual(handAdded);
    // Decimals written by hand survive a token the checked table does not know.
    expect(byCode.get("DTIBDD0QL46R")).toMatchObject({ name: "A BEP-20 token", network: "binance-smart-chain", standard: "BEP-20", decimals: 18 });
    expect(result.changed).toEqual([
      {
        code: "DTIBDD0QL46R",
        fields: {
          name: { from: "Old name", to: "A BEP-20 token" },
          symbol: { from: "BTC", to: "TOK" },
          network: { from: "bitcoin", to: "binance-smart-chain" },
          standard: { from: null, to: "BEP-20" },
          contract: { from: null, to: "0x13616f44ba82d63c8c0dc3ff843d36a8ec1c05a9" },
          addressFamily: { from: "bitcoin", to: "ethereum" },
        },
      },
    ]);
    expect(result.skipped).toEqual({
      "BEP-2 on ledger 8N2VXJKB1: not a token standard of a network the specification names": 1,
      "SPL-Token token without a base58 mint address": 1,
      "ERC-20 on ledger M3Z631TN4: not a token standard of a network the specification names": 1,
      "not a 9-character DTI of the allowed symbols": 1,
      "no ledger or standard, and not a known asset": 1,
    });
    expect(() => new AssetRegistry(result.assets)).not.toThrow();
  });

  it("refuses a snapshot without records", () => {
    expect(() => importDtiRegistry([], [{ items: [] }])).toThrow('A snapshot has no "records" list.');
  });
});

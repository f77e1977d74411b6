import { describe, expect, it } from "vitest";
import { AssetRegistry, assetEnumSdl, dtiCode, importDtiRegistry, isDtiIdentifier } from "../src/index.js";

describe("the asset registry", () => {
  const registry = AssetRegistry.load();

  it("holds the spec's seven native assets and Ether", () => {
    for (const code of ["DTI4H95J0R2X", "DTI20J63Z4N3", "DTI993D8X1FB", "DTIRQWW6J6K0", "DTIHWN9T781J", "DTINVVJ0PSWD", "DTIK1NS41N51", "DTIX9J9K872S"]) {
      expect(registry.has(code), code).toBe(true);
    }
    expect(registry.get("DTI4H95J0R2X")).toMatchObject({ name: "Bitcoin", decimals: 8, addressFamily: "bitcoin" });
  });

  it("validates the DTI shape, not the check character (Bitcoin's registered code fails ISO 7064)", () => {
    expect(isDtiIdentifier("4H95J0R2X")).toBe(true);
    expect(isDtiIdentifier("4H95J0R2A")).toBe(false); // a vowel is not one of the 30 symbols
    expect(isDtiIdentifier("4H95J0R2")).toBe(false);
    expect(isDtiIdentifier("4h95j0r2x")).toBe(false);
    expect(dtiCode("X9J9K872S")).toBe("DTIX9J9K872S");
    expect(() => new AssetRegistry([{ code: "DTIAAAAAAAAA", name: "x", symbol: null, network: null, decimals: null, addressFamily: null }])).toThrow(/not a DTI code/);
  });

  it("generates the GraphQL enum from the data file", () => {
    const sdl = assetEnumSdl(registry, "AopdAsset", "Assets.");
    expect(sdl).toContain("enum AopdAsset {");
    for (const asset of registry.assets) expect(sdl).toContain(`  ${asset.code}\n`);
  });
});

describe("importing a DTI Foundation registry snapshot", () => {
  const snapshot = {
    records: [
      { Header: { DTI: "4H95J0R2X" }, Informative: { LongName: "Bitcoin (registry)", ShortNames: [{ ShortName: "BTC" }] } },
      { Header: { DTI: "V15WLZJMF" }, Informative: { LongName: "Tether USD on Ethereum", ShortNames: [{ ShortName: "USDT" }] } },
      { Header: { DTI: "1XS5NM2WN" }, Informative: { LongName: "Some Token", ShortNames: ["SOME"] } },
      { Header: { DTI: "AEIOU1234" }, Informative: { LongName: "Vowels" } },
      { Header: {}, Informative: { LongName: "No code" } },
    ],
  };

  it("adds new assets, keeps hand-written ones and reports what it skipped", () => {
    const registry = AssetRegistry.load();
    const result = importDtiRegistry(registry.assets, snapshot);
    expect(result.added).toEqual(["DTIV15WLZJMF", "DTI1XS5NM2WN"]);
    expect(result.assets.find((asset) => asset.code === "DTI4H95J0R2X")?.name).toBe("Bitcoin");
    expect(result.assets.find((asset) => asset.code === "DTIV15WLZJMF")).toEqual({
      code: "DTIV15WLZJMF", name: "Tether USD on Ethereum", symbol: "USDT", network: null, decimals: null, addressFamily: null,
    });
    expect(result.assets.find((asset) => asset.code === "DTI1XS5NM2WN")?.symbol).toBe("SOME");
    expect(result.skipped.map((skip) => skip.dti)).toEqual(["AEIOU1234", undefined]);
    expect(() => new AssetRegistry(result.assets)).not.toThrow();
  });

  it("refuses a snapshot without records", () => {
    expect(() => importDtiRegistry([], { items: [] })).toThrow('The snapshot has no "records" list.');
  });
});

import { describe, expect, it } from "vitest";
import { AssetRegistry, assetEnumSdl, dtiCode, isDtiIdentifier } from "../src/index.js";

describe("the asset registry", () => {
  const registry = AssetRegistry.load();

  it("holds the spec's seven codes under the spec's names, with the registry's name where it disagrees", () => {
    const names = Object.fromEntries(
      ["DTI4H95J0R2X", "DTI20J63Z4N3", "DTI993D8X1FB", "DTIRQWW6J6K0", "DTIHWN9T781J", "DTINVVJ0PSWD", "DTIK1NS41N51"].map((code) => [
        code,
        [registry.get(code)?.name, registry.get(code)?.registryName],
      ]),
    );
    expect(names).toEqual({
      DTI4H95J0R2X: ["Bitcoin", undefined],
      DTI20J63Z4N3: ["Solana", undefined],
      DTI993D8X1FB: ["TRON", undefined],
      DTIRQWW6J6K0: ["Polygon", undefined],
      DTIHWN9T781J: ["Binance Smart Chain", "Bitmon"],
      DTINVVJ0PSWD: ["Lightning Network", "Cortex Coin"],
      DTIK1NS41N51: ["Bitcoin on the Lightning Network", "Bitcoin"],
    });
    expect(registry.get("DTI4H95J0R2X")).toMatchObject({ decimals: 8, addressFamily: "bitcoin", standard: null, contract: null });
    // The registry's UnitMultiplier says 10^18 for Solana; the pinned value is right.
    expect(registry.get("DTI20J63Z4N3")?.decimals).toBe(9);
  });

  it("holds the tokens of the 2022 snapshot on the spec's networks, each with its network, standard and contract", () => {
    const tokens = registry.assets.filter((asset) => asset.standard !== null);
    const byStandard: Record<string, number> = {};
    for (const token of tokens) byStandard[`${token.network} ${token.standard}`] = (byStandard[`${token.network} ${token.standard}`] ?? 0) + 1;
    // 150 ERC-20 records: one has a 39-digit contract, and NVVJ0PSWD (Cortex Coin there) is the spec's Lightning Network.
    expect(byStandard).toEqual({
      "ethereum ERC-20": 148,
      "binance-smart-chain BEP-20": 23,
      "solana SPL-Token": 14,
      "tron TRC-20": 8,
      "tron TRC-10": 1,
      "bitcoin OMNI": 2,
    });
    expect(registry.assets.length).toBeGreaterThan(200);
    // Tether on TRON: name from the 2026 snapshot, decimals from the checked table.
    expect(registry.get("DTIC9N6ZVN7S")).toEqual({
      code: "DTIC9N6ZVN7S",
      name: "USD Tether",
      symbol: "USDT",
      network: "tron",
      standard: "TRC-20",
      contract: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
      decimals: 6,
      addressFamily: "tron",
    });
    // The 2022 snapshot names it "USD Coin"; the 2026 one "USDC".
    expect(registry.get("DTI5R3XFPZSM")).toMatchObject({
      name: "USDC",
      network: "solana",
      contract: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
      decimals: 6,
    });
    // Not in the checked table: decimals stay unknown whatever the registry's multiplier says.
    expect(registry.get("DTI17002NH5Z")).toMatchObject({ network: "binance-smart-chain", decimals: null });
  });

  it("validates the DTI shape, not the check character (Bitcoin's registered code fails ISO 7064)", () => {
    expect(isDtiIdentifier("4H95J0R2X")).toBe(true);
    expect(isDtiIdentifier("4H95J0R2A")).toBe(false); // a vowel is not one of the 30 symbols
    expect(isDtiIdentifier("4H95J0R2")).toBe(false);
    expect(isDtiIdentifier("4h95j0r2x")).toBe(false);
    expect(dtiCode("X9J9K872S")).toBe("DTIX9J9K872S");
    const asset = { code: "DTIX9J9K872S", name: "x", symbol: null, network: null, standard: null, contract: null, decimals: null, addressFamily: null };
    expect(() => new AssetRegistry([{ ...asset, code: "DTIAAAAAAAAA" }])).toThrow(/not a DTI code/);
    expect(() => new AssetRegistry([{ ...asset, standard: "ERC-20" }])).toThrow(/both a standard and a contract/);
  });

  it("generates the GraphQL enum from the data file", () => {
    const sdl = assetEnumSdl(registry, "AopdAsset", "Assets.");
    expect(sdl).toContain("enum AopdAsset {");
    for (const asset of registry.assets) expect(sdl).toContain(`  ${asset.code}\n`);
  });
});

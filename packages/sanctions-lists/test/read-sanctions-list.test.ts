import { mkdtempSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledSanctionsLists, familyOfOfacEntry, readSanctionsList, SanctionsListError } from "../src/index.js";

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;
const [older, newer] = bundledSanctionsLists();

describe("reading OFAC list versions", () => {
  it("reads the bundled per-asset text lists with the folder's date, and maps each asset to a family of ours or none", async () => {
    const version = await readSanctionsList([newer!]);
    expect(version.publishedOn).toBe("2024-09-27");
    expect(version.source).toBe("per-asset text lists ofac-2024-09-27");
    expect(version.addresses.find((entry) => entry.address === "13JtX4h7G5ZuNK5mFudKGq9DHLvvMFuNuz")).toEqual({
      ofacAsset: "XBT",
      address: "13JtX4h7G5ZuNK5mFudKGq9DHLvvMFuNuz",
      family: "bitcoin",
      sdnUid: null,
      sdnName: null,
    });
    const families = new Map<string, Set<string | null>>();
    for (const entry of version.addresses) families.set(entry.ofacAsset, (families.get(entry.ofacAsset) ?? new Set()).add(entry.family));
    expect(Object.fromEntries([...families].map(([asset, set]) => [asset, [...set].sort()]))).toEqual({
      ARB: ["ethereum"],
      BCH: [null],
      BSC: ["ethereum"],
      BSV: [null],
      BTG: [null],
      DASH: [null],
      ETC: ["ethereum"],
      ETH: ["ethereum"],
      LTC: [null],
      TRX: ["tron"],
      USDC: ["ethereum"],
      USDT: ["bitcoin", "ethereum", "tron"],
      XBT: ["bitcoin"],
      XMR: [null],
      XRP: [null],
      XVG: [null],
      ZEC: [null],
    });
    const olderVersion = await readSanctionsList([older!]);
    expect(version.addresses.length - olderVersion.addresses.length).toBe(5);
    expect(olderVersion.contentHash).not.toBe(version.contentHash);
  });

  it("gives the same hash to the same list whatever order its files are named in", async () => {
    const { readdirSync } = await import("node:fs");
    const files = readdirSync(newer!).map((name) => join(newer!, name));
    const forward = await readSanctionsList(files.filter((file) => file.endsWith(".txt")));
    const backward = await readSanctionsList(files.filter((file) => file.endsWith(".txt")).reverse());
    expect(backward.contentHash).toBe(forward.contentHash);
  });

  it("reads sdn.xml: the publication date, and per entry its uid, name and digital currency addresses only", async () => {
    const version = await readSanctionsList([fixture("sdn.xml")]);
    expect(version.publishedOn).toBe("2024-09-27");
    expect(version.source).toBe("sdn.xml sdn.xml");
    expect(version.addresses).toEqual([
      { ofacAsset: "ETH", address: "0x0931cA4D13BB4ba75D9B7132AB690265D749a5E7", family: "ethereum", sdnUid: "90001", sdnName: "Person EXAMPLE ONE" },
      { ofacAsset: "LTC", address: "M8yFL6SFC6TreATegTyuSYkDfDRbisdpT3", family: null, sdnUid: "90002", sdnName: "EXAMPLE EXCHANGE LLC" },
      { ofacAsset: "USDT", address: "TTUDyVhhpCC1xJoPmWzdjLAzeoPwbSABdr", family: "tron", sdnUid: "90002", sdnName: "EXAMPLE EXCHANGE LLC" },
      { ofacAsset: "XBT", address: "13JtX4h7G5ZuNK5mFudKGq9DHLvvMFuNuz", family: "bitcoin", sdnUid: "90001", sdnName: "Person EXAMPLE ONE" },
    ]);
  });

  it("reads sdn_advanced.xml: feature types from the reference sets, the primary alias's name, the addresses", async () => {
    const version = await readSanctionsList([fixture("sdn_advanced.xml")]);
    expect(version.publishedOn).toBe("2024-09-27");
    expect(version.source).toBe("sdn_advanced.xml sdn_advanced.xml");
    expect(version.addresses.map((entry) => [entry.ofacAsset, entry.address, entry.family, entry.sdnUid, entry.sdnName])).toEqual([
      ["ETH", "0x0931cA4D13BB4ba75D9B7132AB690265D749a5E7", "ethereum", "90001", "Person EXAMPLE ONE"],
      ["TRX", "TLM3zA3EWycoDX4ZX4gKze7sgfbdkntTum", "tron", "90002", "EXAMPLE EXCHANGE LLC"],
      ["XBT", "13JtX4h7G5ZuNK5mFudKGq9DHLvvMFuNuz", "bitcoin", "90001", "Person EXAMPLE ONE"],
      ["XMR", "49HqitRzdnhYjgTEAhgGpCfsjdTeMbUTU6cyR4JV1R7k2Eej9rGT8JpFiYDa4tZM6RZiFrHmMzgSrhHEqpDYKBe5B2ufNsL", null, "90002", "EXAMPLE EXCHANGE LLC"],
    ]);
  });

  it("maps USDT and USDC by the address's own format (Omni USDT sits at Bitcoin addresses), and codes of networks we lack to none", () => {
    expect(familyOfOfacEntry("USDC", "0x0931cA4D13BB4ba75D9B7132AB690265D749a5E7")).toBe("ethereum");
    expect(familyOfOfacEntry("USDT", "TTUDyVhhpCC1xJoPmWzdjLAzeoPwbSABdr")).toBe("tron");
    expect(familyOfOfacEntry("USDT", "1KUUJPkyDhamZXgpsyXqNGc3x1QPXtdhgz")).toBe("bitcoin");
    expect(familyOfOfacEntry("USDC", "not-a-known-format")).toBeNull();
    expect(familyOfOfacEntry("LTC", "M8yFL6SFC6TreATegTyuSYkDfDRbisdpT3")).toBeNull();
  });

  it("refuses what is not a list, naming the file and what is allowed, before anything is imported", async () => {
    const folder = mkdtempSync(join(tmpdir(), "sanctions-"));
    const broken = join(folder, "sdn.xml");
    writeFileSync(broken, "<sdnList><publshInformation><Publish_Date>09/27/2024</Publish_Date></publshInformation><sdnEntry></sdnList>");
    await expect(readSanctionsList([broken])).rejects.toThrow(/is not well-formed XML/);
    const badDate = join(folder, "dated.xml");
    writeFileSync(badDate, "<sdnList><publshInformation><Publish_Date>2024-09-27</Publish_Date></publshInformation></sdnList>");
    await expect(readSanctionsList([badDate])).rejects.toThrow(/Publish_Date "2024-09-27" is not a date of the form MM\/DD\/YYYY/);
    const other = join(folder, "other.xml");
    writeFileSync(other, "<?xml version='1.0'?><catalog/>");
    await expect(readSanctionsList([other])).rejects.toThrow(/root element <catalog> is neither/);
    const undated = join(folder, "lists");
    mkdirSync(undated);
    writeFileSync(join(undated, "sanctioned_addresses_XBT.txt"), "13JtX4h7G5ZuNK5mFudKGq9DHLvvMFuNuz\nnot an address\n");
    await expect(readSanctionsList([undated])).rejects.toThrow(/carry no date/);
    await expect(readSanctionsList([undated], { publishedOn: "2024-02-30" })).rejects.toThrow(/not a calendar date/);
    await expect(readSanctionsList([undated], { publishedOn: "2024-09-27" })).rejects.toThrow(
      /sanctioned_addresses_XBT.txt:2: "not an address" is not an address/,
    );
    await expect(readSanctionsList([join(folder, "missing")])).rejects.toBeInstanceOf(SanctionsListError);
    await expect(readSanctionsList([fixture("sdn.xml"), fixture("sdn_advanced.xml")])).rejects.toThrow(/name one XML file alone/);
  });
});

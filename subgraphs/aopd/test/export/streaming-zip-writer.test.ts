import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { promisify } from "node:util";
import { crc32 } from "node:zlib";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { StreamingZipWriter } from "../../src/xlsx/streaming-zip-writer.js";
import { centralHeader, dataDescriptor, directoryEnd, localHeader, zip32Overflow } from "../../src/xlsx/zip-records.js";

const GiB = 2 ** 30;

/** Reads the ZIP64 extra field (id 1) of a central directory header as its 8-byte values. */
function zip64Values(header: Buffer): bigint[] {
  const nameLength = header.readUInt16LE(28);
  const extraLength = header.readUInt16LE(30);
  if (extraLength === 0) return [];
  const at = 46 + nameLength;
  expect(header.readUInt16LE(at)).toBe(0x0001);
  const length = header.readUInt16LE(at + 2);
  return Array.from({ length: length / 8 }, (_, index) => header.readBigUInt64LE(at + 4 + 8 * index));
}

describe("ZIP records past 4 GiB (APPNOTE 4.3.9, 4.3.12, 4.3.14, 4.5.3)", () => {
  it("gives a central header 32-bit fields of 0xFFFFFFFF and the values in a ZIP64 extra field, in the order size, compressed size, offset", () => {
    const header = centralHeader({
      name: "xl/worksheets/sheet1.xml",
      crc32: 0x1234_5678,
      size: 5 * GiB,
      compressedSize: 4.5 * GiB,
      offset: 6 * GiB,
      streamed: true,
    });
    expect(header.readUInt32LE(0)).toBe(0x02014b50);
    expect(header.readUInt16LE(6)).toBe(45);
    expect(header.readUInt16LE(8) & 0x0008).toBe(0x0008);
    expect(header.readUInt32LE(16)).toBe(0x1234_5678);
    expect([header.readUInt32LE(20), header.readUInt32LE(24), header.readUInt32LE(42)]).toEqual([zip32Overflow, zip32Overflow, zip32Overflow]);
    expect(zip64Values(header)).toEqual([BigInt(5 * GiB), BigInt(4.5 * GiB), BigInt(6 * GiB)]);
  });

  it("puts only the values that overflow into the extra field", () => {
    const offsetOnly = centralHeader({ name: "[Content_Types].xml", crc32: 1, size: 900, compressedSize: 400, offset: 5 * GiB, streamed: false });
    expect([offsetOnly.readUInt32LE(20), offsetOnly.readUInt32LE(24), offsetOnly.readUInt32LE(42)]).toEqual([400, 900, zip32Overflow]);
    expect(zip64Values(offsetOnly)).toEqual([BigInt(5 * GiB)]);
    const sizeOnly = centralHeader({ name: "s", crc32: 1, size: 4 * GiB, compressedSize: 100_000_000, offset: 10, streamed: true });
    expect(zip64Values(sizeOnly)).toEqual([BigInt(4 * GiB)]);
    expect(sizeOnly.readUInt32LE(20)).toBe(100_000_000);
  });

  it("writes no ZIP64 field below 4 GiB, and version 2.0", () => {
    const header = centralHeader({ name: "a", crc32: 1, size: zip32Overflow - 1, compressedSize: 10, offset: zip32Overflow - 1, streamed: true });
    expect(header.readUInt16LE(30)).toBe(0);
    expect(header.readUInt16LE(6)).toBe(20);
  });

  it("writes 8-byte sizes into the data descriptor of an entry past 4 GiB, 4-byte ones below", () => {
    const wide = dataDescriptor({ crc32: 0xdead_beef, size: 5 * GiB, compressedSize: 1 * GiB });
    expect(wide.length).toBe(24);
    expect([wide.readUInt32LE(0), wide.readUInt32LE(4)]).toEqual([0x08074b50, 0xdead_beef]);
    expect([wide.readBigUInt64LE(8), wide.readBigUInt64LE(16)]).toEqual([BigInt(1 * GiB), BigInt(5 * GiB)]);
    const narrow = dataDescriptor({ crc32: 7, size: 1000, compressedSize: 500 });
    expect(narrow.length).toBe(16);
    expect([narrow.readUInt32LE(8), narrow.readUInt32LE(12)]).toEqual([500, 1000]);
  });

  it("ends a file whose central directory starts past 4 GiB with the ZIP64 end record and its locator", () => {
    const offset = 7 * GiB;
    const end = directoryEnd({ entries: 6, offset, size: 500 });
    expect(end.length).toBe(56 + 20 + 22);
    expect(end.readUInt32LE(0)).toBe(0x06064b50);
    expect(end.readBigUInt64LE(4)).toBe(44n);
    expect([end.readBigUInt64LE(24), end.readBigUInt64LE(32), end.readBigUInt64LE(40), end.readBigUInt64LE(48)]).toEqual([6n, 6n, 500n, BigInt(offset)]);
    expect(end.readUInt32LE(56)).toBe(0x07064b50);
    // The locator names where the ZIP64 end record starts: right after the central directory.
    expect(end.readBigUInt64LE(56 + 8)).toBe(BigInt(offset + 500));
    expect(end.readUInt32LE(56 + 16)).toBe(1);
    expect(end.readUInt32LE(76)).toBe(0x06054b50);
    expect([end.readUInt16LE(76 + 10), end.readUInt32LE(76 + 12), end.readUInt32LE(76 + 16)]).toEqual([6, 500, zip32Overflow]);
  });

  it("ends a small file with the plain end record", () => {
    const end = directoryEnd({ entries: 6, offset: 1000, size: 400 });
    expect(end.length).toBe(22);
    expect([end.readUInt16LE(10), end.readUInt32LE(12), end.readUInt32LE(16)]).toEqual([6, 400, 1000]);
  });

  it("refuses an entry written whole past 4 GiB, which its local header could not describe", () => {
    expect(() => localHeader({ name: "a", crc32: 0, size: 5 * GiB, compressedSize: 10, streamed: false })).toThrow(/4 GiB/);
  });
});

async function zipOf(write: (zip: StreamingZipWriter) => Promise<void>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  const zip = new StreamingZipWriter(output);
  await write(zip);
  await zip.finish();
  return Buffer.concat(chunks);
}

describe("StreamingZipWriter read back by independent readers", () => {
  const text = "<row>ä 💩 &amp;</row>".repeat(20_000);

  async function sample(): Promise<Buffer> {
    return zipOf(async (zip) => {
      zip.startEntry("xl/worksheets/sheet1.xml");
      for (let index = 0; index < 10; index += 1) if (!zip.write(Buffer.from(text))) await zip.drained();
      await zip.endEntry();
      zip.startEntry("empty.xml");
      await zip.endEntry();
      zip.addEntry("[Content_Types].xml", "<Types/>");
    });
  }

  it("gives JSZip every entry with its bytes, CRC-32 checked", async () => {
    const loaded = await JSZip.loadAsync(await sample(), { checkCRC32: true });
    expect(Object.keys(loaded.files)).toEqual(["xl/worksheets/sheet1.xml", "empty.xml", "[Content_Types].xml"]);
    expect(await loaded.file("xl/worksheets/sheet1.xml")!.async("string")).toBe(text.repeat(10));
    expect(await loaded.file("empty.xml")!.async("string")).toBe("");
    expect(await loaded.file("[Content_Types].xml")!.async("string")).toBe("<Types/>");
  });

  it("passes Info-ZIP's `unzip -t`, which checks the local headers, data descriptors and CRCs", async () => {
    const folder = await mkdtemp(join(tmpdir(), "xlsx15-zip-"));
    try {
      const path = join(folder, "sample.zip");
      await writeFile(path, await sample());
      const { stdout } = await promisify(execFile)("unzip", ["-t", path]);
      expect(stdout).toMatch(/No errors detected/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("records the CRC-32 and sizes of what was written", async () => {
    const file = await zipOf(async (zip) => {
      zip.startEntry("a.txt");
      zip.write(Buffer.from("hello "));
      zip.write(Buffer.from("world"));
      await zip.endEntry();
    });
    const directoryAt = file.readUInt32LE(file.length - 22 + 16);
    expect(file.readUInt32LE(directoryAt + 16)).toBe(crc32("hello world"));
    expect(file.readUInt32LE(directoryAt + 24)).toBe(11);
  });
});

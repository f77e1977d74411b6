/**
 * The records of a ZIP file (PKWARE APPNOTE 6.3.10) that `StreamingZipWriter` writes, as pure
 * functions of numbers, so that the ZIP64 forms (sizes and offsets past 4 GiB) can be checked
 * without writing 4 GiB.
 *
 * ZIP64 is used only where a value needs it, as Go's archive/zip and archiver do: an entry
 * streamed with unknown sizes gets a local header without a ZIP64 field (its sizes follow in a
 * data descriptor), the data descriptor carries 8-byte sizes when a size passes 32 bits, and the
 * central directory, which readers such as Excel, LibreOffice, exceljs and SheetJS go by, gets a
 * ZIP64 extra field for each value that does not fit, and the ZIP64 end records when the
 * directory's place, size or count does not.
 */

/** A 32-bit field that holds this says that the real value is in the ZIP64 extra field. */
export const zip32Overflow = 0xffff_ffff;
const zip16Overflow = 0xffff;

const localHeaderSignature = 0x04034b50;
const dataDescriptorSignature = 0x08074b50;
const centralHeaderSignature = 0x02014b50;
const zip64EndSignature = 0x06064b50;
const zip64LocatorSignature = 0x07064b50;
const endSignature = 0x06054b50;
const zip64ExtraId = 0x0001;

/** "Version needed to extract": 2.0 for deflate, 4.5 for ZIP64. */
const versionDeflate = 20;
const versionZip64 = 45;
/** Bit 3: CRC-32 and sizes follow the data in a data descriptor. */
const flagDataDescriptor = 0x0008;
const methodDeflate = 8;

/** 2000-01-01 00:00:00 in MS-DOS form: the fixed modification time of every part (see XlsxProofWriter). */
export const dosTime = 0;
export const dosDate = ((2000 - 1980) << 9) | (1 << 5) | 1;

export interface ZipEntryRecord {
  name: string;
  crc32: number;
  compressedSize: number;
  size: number;
  /** Where the entry's local header starts in the file. */
  offset: number;
  /** Whether the sizes followed the data in a data descriptor. */
  streamed: boolean;
}

/**
 * The local header. A streamed entry's CRC-32 and sizes are zero here and follow the data; an
 * entry written whole carries them (never past 4 GiB: those are the small package parts).
 */
export function localHeader(entry: Pick<ZipEntryRecord, "name" | "crc32" | "compressedSize" | "size" | "streamed">): Buffer {
  const name = Buffer.from(entry.name, "utf8");
  const header = Buffer.alloc(30 + name.length);
  header.writeUInt32LE(localHeaderSignature, 0);
  header.writeUInt16LE(versionDeflate, 4);
  header.writeUInt16LE(entry.streamed ? flagDataDescriptor : 0, 6);
  header.writeUInt16LE(methodDeflate, 8);
  header.writeUInt16LE(dosTime, 10);
  header.writeUInt16LE(dosDate, 12);
  if (!entry.streamed) {
    if (entry.compressedSize >= zip32Overflow || entry.size >= zip32Overflow) throw new Error("An entry written whole must stay below 4 GiB.");
    header.writeUInt32LE(entry.crc32 >>> 0, 14);
    header.writeUInt32LE(entry.compressedSize, 18);
    header.writeUInt32LE(entry.size, 22);
  }
  header.writeUInt16LE(name.length, 26);
  header.writeUInt16LE(0, 28);
  name.copy(header, 30);
  return header;
}

/** Whether an entry's sizes need 8 bytes in its data descriptor. */
export function needsZip64Sizes(entry: Pick<ZipEntryRecord, "compressedSize" | "size">): boolean {
  return entry.compressedSize >= zip32Overflow || entry.size >= zip32Overflow;
}

/** The data descriptor after a streamed entry's data: signature, CRC-32, then 4- or 8-byte sizes. */
export function dataDescriptor(entry: Pick<ZipEntryRecord, "crc32" | "compressedSize" | "size">): Buffer {
  const zip64 = needsZip64Sizes(entry);
  const record = Buffer.alloc(zip64 ? 24 : 16);
  record.writeUInt32LE(dataDescriptorSignature, 0);
  record.writeUInt32LE(entry.crc32 >>> 0, 4);
  if (zip64) {
    record.writeBigUInt64LE(BigInt(entry.compressedSize), 8);
    record.writeBigUInt64LE(BigInt(entry.size), 16);
  } else {
    record.writeUInt32LE(entry.compressedSize, 8);
    record.writeUInt32LE(entry.size, 12);
  }
  return record;
}

/** The entry's central directory header, with a ZIP64 extra field for each value past 32 bits. */
export function centralHeader(entry: ZipEntryRecord): Buffer {
  const name = Buffer.from(entry.name, "utf8");
  // The extra field holds, in this order, only the values whose 32-bit field overflows (APPNOTE 4.5.3).
  const wide = [entry.size, entry.compressedSize, entry.offset].filter((value) => value >= zip32Overflow);
  const extraLength = wide.length === 0 ? 0 : 4 + 8 * wide.length;
  const header = Buffer.alloc(46 + name.length + extraLength);
  const version = wide.length > 0 ? versionZip64 : versionDeflate;
  header.writeUInt32LE(centralHeaderSignature, 0);
  header.writeUInt16LE(version, 4); // made by: MS-DOS attributes, this version
  header.writeUInt16LE(version, 6);
  header.writeUInt16LE(entry.streamed ? flagDataDescriptor : 0, 8);
  header.writeUInt16LE(methodDeflate, 10);
  header.writeUInt16LE(dosTime, 12);
  header.writeUInt16LE(dosDate, 14);
  header.writeUInt32LE(entry.crc32 >>> 0, 16);
  header.writeUInt32LE(Math.min(entry.compressedSize, zip32Overflow), 20);
  header.writeUInt32LE(Math.min(entry.size, zip32Overflow), 24);
  header.writeUInt16LE(name.length, 28);
  header.writeUInt16LE(extraLength, 30);
  // Comment length, disk number, internal and external attributes: all zero.
  header.writeUInt32LE(Math.min(entry.offset, zip32Overflow), 42);
  name.copy(header, 46);
  if (extraLength > 0) {
    let at = 46 + name.length;
    header.writeUInt16LE(zip64ExtraId, at);
    header.writeUInt16LE(8 * wide.length, at + 2);
    at += 4;
    for (const value of wide) {
      header.writeBigUInt64LE(BigInt(value), at);
      at += 8;
    }
  }
  return header;
}

export interface ZipDirectory {
  entries: number;
  /** Where the central directory starts, and its length in bytes. */
  offset: number;
  size: number;
}

/**
 * What follows the central directory: the end of central directory record, preceded by the ZIP64
 * end record and its locator when the directory's count, size or place does not fit its field.
 */
export function directoryEnd(directory: ZipDirectory): Buffer {
  const zip64 = directory.entries >= zip16Overflow || directory.size >= zip32Overflow || directory.offset >= zip32Overflow;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(endSignature, 0);
  // Disk numbers: zero.
  end.writeUInt16LE(Math.min(directory.entries, zip16Overflow), 8);
  end.writeUInt16LE(Math.min(directory.entries, zip16Overflow), 10);
  end.writeUInt32LE(Math.min(directory.size, zip32Overflow), 12);
  end.writeUInt32LE(Math.min(directory.offset, zip32Overflow), 16);
  if (!zip64) return end;
  const record = Buffer.alloc(56);
  record.writeUInt32LE(zip64EndSignature, 0);
  record.writeBigUInt64LE(44n, 4); // the size of the rest of this record
  record.writeUInt16LE(versionZip64, 12);
  record.writeUInt16LE(versionZip64, 14);
  // Disk numbers at 16 and 20: zero.
  record.writeBigUInt64LE(BigInt(directory.entries), 24);
  record.writeBigUInt64LE(BigInt(directory.entries), 32);
  record.writeBigUInt64LE(BigInt(directory.size), 40);
  record.writeBigUInt64LE(BigInt(directory.offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(zip64LocatorSignature, 0);
  locator.writeBigUInt64LE(BigInt(directory.offset + directory.size), 8); // where the ZIP64 end record starts
  locator.writeUInt32LE(1, 16); // disks in all
  return Buffer.concat([record, locator, end]);
}

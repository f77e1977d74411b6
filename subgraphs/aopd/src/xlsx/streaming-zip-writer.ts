import { once } from "node:events";
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { crc32, createDeflateRaw, deflateRawSync, type DeflateRaw } from "node:zlib";
import { centralHeader, dataDescriptor, directoryEnd, localHeader, type ZipEntryRecord } from "./zip-records.js";

export interface StreamingZipWriterOptions {
  /**
   * zlib's deflate level, 1 (fastest) to 9 (smallest). Level 1 gives files about a tenth larger
   * than level 6 and takes half the CPU (measured: about 4.5 against 9 µs a proof row).
   * @default 1
   */
  level?: number;
}

/** Deflate's output pieces: larger than zlib's 16 KiB default, so fewer pieces travel through the streams. */
const deflateChunkBytes = 64 * 1024;

/**
 * What deflate's input may hold before `write` says to wait: several of the writers' pieces, so
 * that the JavaScript thread writes the next piece while the thread pool compresses this one.
 * With the default 16 KiB every piece was a wait, and the two took turns instead of overlapping.
 */
const deflateInputBytes = 512 * 1024;

/**
 * A ZIP writer for one case: entries written one after the other, the large ones streamed with
 * sizes unknown in advance, straight into `output`. It replaces archiver for the export because
 * every row passes through it: CRC-32 is zlib's native one (archiver's is JavaScript, about a
 * twentieth of the thread), and the data goes through one deflate stream into the output rather
 * than four streams, so the JavaScript thread does little more than hand over bytes. Deflate runs
 * on libuv's thread pool.
 *
 * Sizes past 4 GiB are written in ZIP64 form (see zip-records.ts); the offsets and sizes are
 * counted here as plain numbers, exact up to 2^53 bytes.
 *
 * Backpressure: `write` says false when the entry's deflate holds more than its buffer, and
 * `drained` resolves when it can take more; deflate's output is piped into `output`, which pauses
 * it while `output` is full. So memory holds a few buffers, whatever the size of the file.
 */
export class StreamingZipWriter {
  readonly #output: Writable;
  readonly #level: number;
  readonly #entries: ZipEntryRecord[] = [];
  readonly #failed: Promise<never>;
  #offset = 0;
  #entry: { record: ZipEntryRecord; deflate: DeflateRaw } | undefined;

  constructor(output: Writable, options: StreamingZipWriterOptions = {}) {
    this.#output = output;
    this.#level = options.level ?? 1;
    // Whatever stops the file (the output fails, the client goes away) rejects the next wait, so
    // that the caller stops producing instead of waiting for a drain that never comes.
    this.#failed = new Promise<never>((_, reject) => {
      output.on("error", reject);
      output.on("close", () => {
        if (!output.writableFinished) reject(new Error("The zip's output was closed before the file was complete."));
      });
    });
    this.#failed.catch(() => undefined);
  }

  /** Settles only by rejecting, when the output fails or closes early; for callers' own races. */
  get failed(): Promise<never> {
    return this.#failed;
  }

  /** Writes a small entry whole (its sizes in the local header). */
  addEntry(name: string, content: string): void {
    this.#assertNoOpenEntry();
    const data = Buffer.from(content, "utf8");
    const compressed = deflateRawSync(data, { level: this.#level });
    const record: ZipEntryRecord = { name, crc32: crc32(data), compressedSize: compressed.length, size: data.length, offset: this.#offset, streamed: false };
    this.#write(localHeader(record));
    this.#write(compressed);
    this.#entries.push(record);
  }

  /** Opens an entry whose data follows through `write`; `endEntry` closes it. */
  startEntry(name: string): void {
    this.#assertNoOpenEntry();
    const record: ZipEntryRecord = { name, crc32: 0, compressedSize: 0, size: 0, offset: this.#offset, streamed: true };
    this.#write(localHeader(record));
    const deflate = createDeflateRaw({
      level: this.#level,
      chunkSize: deflateChunkBytes,
      // Stream options, which zlib's streams take with their own (Node's types list only the latter).
      ...({ writableHighWaterMark: deflateInputBytes } as object),
    });
    deflate.on("data", (chunk: Buffer) => {
      record.compressedSize += chunk.length;
      this.#offset += chunk.length;
    });
    deflate.pipe(this.#output, { end: false });
    this.#entry = { record, deflate };
  }

  /**
   * Appends to the open entry. Returns false when its deflate is full: the caller then waits for
   * `drained()` before writing more.
   */
  write(data: Buffer): boolean {
    const entry = this.#entry;
    if (!entry) throw new Error("No entry is open.");
    entry.record.crc32 = crc32(data, entry.record.crc32);
    entry.record.size += data.length;
    return entry.deflate.write(data);
  }

  /** Resolves when the open entry's deflate takes more; rejects when the output failed. */
  async drained(): Promise<void> {
    const entry = this.#entry;
    if (!entry || !entry.deflate.writableNeedDrain) return;
    await Promise.race([once(entry.deflate, "drain"), this.#failed]);
  }

  /** Ends the open entry: the rest of its deflate, then its data descriptor. */
  async endEntry(): Promise<void> {
    const entry = this.#entry;
    if (!entry) throw new Error("No entry is open.");
    entry.deflate.end();
    // The deflate's last bytes are in the output once it has ended (pipe writes each piece as it is read).
    await Promise.race([finished(entry.deflate), this.#failed]);
    entry.deflate.unpipe(this.#output);
    this.#entry = undefined;
    this.#write(dataDescriptor(entry.record));
    this.#entries.push(entry.record);
  }

  /** Writes the central directory and ends `output`; resolves once `output` has everything. */
  async finish(): Promise<void> {
    this.#assertNoOpenEntry();
    const offset = this.#offset;
    const directory = Buffer.concat(this.#entries.map(centralHeader));
    this.#write(directory);
    this.#write(directoryEnd({ entries: this.#entries.length, offset, size: directory.length }));
    this.#output.end();
    await Promise.race([finished(this.#output), this.#failed]);
  }

  /** Stops after a failure elsewhere: the open entry's deflate is dropped and `output` is not ended. */
  abort(): void {
    if (!this.#entry) return;
    this.#entry.deflate.unpipe(this.#output);
    this.#entry.deflate.destroy();
    this.#entry = undefined;
  }

  #write(bytes: Buffer): void {
    this.#output.write(bytes);
    this.#offset += bytes.length;
  }

  #assertNoOpenEntry(): void {
    if (this.#entry) throw new Error(`The entry ${this.#entry.record.name} is still open.`);
  }
}

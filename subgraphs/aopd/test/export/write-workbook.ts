import { Writable } from "node:stream";
import type { Proof } from "../../src/proofs/proof.js";
import { XlsxProofWriter, type XlsxProofWriterOptions } from "../../src/export/xlsx-proof-writer.js";

/** Writes proofs with the export's writer into memory and returns the file, for tests that need no database. */
export async function writeWorkbook(batches: readonly (readonly Proof[])[], options: Partial<Omit<XlsxProofWriterOptions, "output">> = {}): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  const writer = new XlsxProofWriter({ assetName: () => "Bitcoin", ...options, output });
  for (const batch of batches) await writer.add(batch);
  await writer.finish();
  return Buffer.concat(chunks);
}

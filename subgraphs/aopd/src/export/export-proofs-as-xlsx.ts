import { constants as bufferConstants } from "node:buffer";
import { Writable } from "node:stream";
import { LimitExceededError } from "@compliance-graph/errors";
import type { Kysely } from "kysely";
import type { AopdDatabase } from "../database/database-schema.js";
import { ExportBrokeOff } from "./export-broke-off.js";
import { streamProofsAsXlsx, type ProofExportOptions } from "./stream-proofs-as-xlsx.js";

export interface ProofExport {
  file: Buffer;
  rows: number;
}

/**
 * The base64 text of a file travels as one JavaScript string inside the JSON response, and V8 caps
 * string length (about 512 MiB on 64-bit Node). A larger file would fail while the response is
 * written, with an error the client cannot act on, so it is refused here with one it can. A MiB is
 * left for the rest of the response.
 */
const maxBase64Length = bufferConstants.MAX_STRING_LENGTH - 2 ** 20;
const maxFileBytes = Math.floor((maxBase64Length / 4) * 3);

/**
 * The export as `proofsAsXlsx` answers it: the whole file in memory (see `streamProofsAsXlsx` for
 * the rows and their order). Only the compressed file grows; the download route streams instead.
 */
export async function exportProofsAsXlsx(db: Kysely<AopdDatabase>, options: ProofExportOptions): Promise<ProofExport> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const collect = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      bytes += chunk.length;
      // Stopped while writing, not after: a file too large for the response is never held whole.
      callback(bytes > maxFileBytes ? tooLarge(bytes) : null);
    },
  });
  try {
    const rows = await streamProofsAsXlsx(db, options, () => collect);
    return { file: Buffer.concat(chunks), rows };
  } catch (error) {
    // Nothing of a file held in memory reached the caller: what stopped it is the answer.
    throw error instanceof ExportBrokeOff ? error.cause : error;
  }
}

function tooLarge(bytes: number): LimitExceededError {
  return new LimitExceededError(
    "maxExportBytes",
    maxFileBytes,
    `The export is more than ${bytes} bytes, more than one response can carry. Narrow the filter and export in parts, or use the download route.`,
  );
}

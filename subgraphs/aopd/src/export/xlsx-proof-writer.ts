import type { Proof } from "../proofs/proof.js";
import { proofRowXml, worksheetStartXml } from "./proof-worksheet-xml.js";
import { XlsxWorkbookWriter, type XlsxWorkbookWriterOptions } from "../xlsx/xlsx-workbook-writer.js";

export { maxRowsPerSheet as maxProofRowsPerSheet } from "../xlsx/xlsx-workbook-writer.js";

export interface XlsxProofWriterOptions extends XlsxWorkbookWriterOptions {
  /** The display name of an asset code, for `add`; unknown codes leave the cell empty. @default no names */
  assetName?: (code: string) => string | undefined;
}

/** The proof export's workbook: sheets `Proofs`, `Proofs 2`, ... of the columns in proof-export-columns.ts. */
export class XlsxProofWriter extends XlsxWorkbookWriter<Proof> {
  constructor(options: XlsxProofWriterOptions) {
    const assetName = options.assetName ?? (() => undefined);
    super(options, {
      startXml: worksheetStartXml,
      rowXml: (rowNumber, proof) => proofRowXml(rowNumber, proof, assetName),
      sheetName: (sheetNumber) => (sheetNumber === 1 ? "Proofs" : `Proofs ${sheetNumber}`),
    });
  }
}

import type { Proof } from "../proofs/proof.js";
import { cellText } from "../xlsx/cell-text.js";
import { dateCell, textCell, worksheetStartXmlOf } from "../xlsx/worksheet-xml.js";
import { proofExportColumnLetters as columnLetters, proofExportColumns } from "./proof-export-columns.js";

/** Opens a proof worksheet: the columns of proof-export-columns.ts. */
export const worksheetStartXml = worksheetStartXmlOf(proofExportColumns);

/** One proof as worksheet row `rowNumber` (1-based; the header is row 1). Empty values leave the cell out. */
export function proofRowXml(rowNumber: number, proof: Proof, assetName: (code: string) => string | undefined): string {
  let xml = `<row r="${rowNumber}">`;
  for (let index = 0; index < proofExportColumns.length; index += 1) {
    const value = (proofExportColumns[index] as (typeof proofExportColumns)[number]).value(proof, assetName);
    if (value === null || value === "") continue;
    const reference = `${columnLetters[index] as string}${rowNumber}`;
    xml += typeof value === "string" ? textCell(reference, cellText(value)) : dateCell(reference, value);
  }
  return `${xml}</row>`;
}

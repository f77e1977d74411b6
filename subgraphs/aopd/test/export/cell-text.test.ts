import { describe, expect, it } from "vitest";
import { cellText, maxCellCharacters, truncationMarker } from "../../src/xlsx/cell-text.js";

describe("cellText", () => {
  it("leaves ordinary text, tabs, line feeds and carriage returns alone", () => {
    for (const text of ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "a\tb\nc\r\nd", "Grüße, 你好 💩", "=1+1", "_x0041_", "del\u007f"]) {
      expect(cellText(text)).toBe(text);
    }
  });

  it("shows characters XML cannot carry as U+FFFD, never as an OOXML escape", () => {
    expect(cellText("a\u0000b\u0001c\u0008d\u000be\u000cf\u000eg\u001fh\ufffei\uffff")).toBe("a\ufffdb\ufffdc\ufffdd\ufffde\ufffdf\ufffdg\ufffdh\ufffdi\ufffd");
    // Halves of surrogate pairs without their partner have no UTF-8 form.
    expect(cellText("x\ud83dy\udca9z💩")).toBe("x\ufffdy\ufffdz💩");
  });

  it(`cuts text longer than ${maxCellCharacters} characters and marks the cut`, () => {
    expect(cellText("a".repeat(maxCellCharacters))).toBe("a".repeat(maxCellCharacters));
    const cut = cellText("a".repeat(maxCellCharacters + 1));
    expect(cut).toHaveLength(maxCellCharacters);
    expect(cut.endsWith(truncationMarker)).toBe(true);
  });

  it("never splits a surrogate pair at the cut", () => {
    const keep = maxCellCharacters - truncationMarker.length;
    const cut = cellText("a".repeat(keep - 1) + "💩" + "b".repeat(100));
    expect(cut).toBe("a".repeat(keep - 1) + truncationMarker);
    expect(cut.length).toBe(maxCellCharacters - 1);
  });
});

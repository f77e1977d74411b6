import { describe, expect, it } from "vitest";
import { cellText, maxCellCharacters, truncationMarker, visibleCellText } from "../../src/export/cell-text.js";

describe("cellText", () => {
  it("leaves ordinary text, tabs and line feeds alone", () => {
    for (const text of ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "a\tb\nc", "Grüße, 你好 💩", "=1+1"]) expect(cellText(text)).toBe(text);
  });

  it("escapes what XML cannot carry the OOXML way, and a literal escape so that it stays literal", () => {
    expect(cellText("a\rb")).toBe("a_x000D_b");
    expect(cellText("\u0000\u0001\u001f\u007f\uffff")).toBe("_x0000__x0001__x001F__x007F__xFFFF_");
    expect(cellText("_x0041_ and _x41_ and _xZZZZ_")).toBe("_x005F_x0041_ and _x41_ and _xZZZZ_");
  });

  it(`cuts text longer than ${maxCellCharacters} characters and marks the cut`, () => {
    expect(visibleCellText("a".repeat(maxCellCharacters))).toBe("a".repeat(maxCellCharacters));
    const cut = visibleCellText("a".repeat(maxCellCharacters + 1));
    expect(cut).toHaveLength(maxCellCharacters);
    expect(cut.endsWith(truncationMarker)).toBe(true);
  });

  it("never splits a surrogate pair at the cut", () => {
    const keep = maxCellCharacters - truncationMarker.length;
    const cut = visibleCellText("a".repeat(keep - 1) + "💩" + "b".repeat(100));
    expect(cut).toBe("a".repeat(keep - 1) + truncationMarker);
    expect(cut.length).toBe(maxCellCharacters - 1);
  });
});

import { describe, expect, it } from "vitest";
import { binaryScalar } from "../../src/scalars/binary-scalar.js";

describe("the Binary scalar", () => {
  it("serialises buffers and byte views as base64 and passes valid base64 through", () => {
    const bytes = Buffer.from("compliance");
    expect(binaryScalar.serialize(bytes)).toBe("Y29tcGxpYW5jZQ==");
    expect(binaryScalar.serialize(new Uint8Array(bytes).subarray(1, 4))).toBe(Buffer.from("omp").toString("base64"));
    expect(binaryScalar.serialize("Y29tcGxpYW5jZQ==")).toBe("Y29tcGxpYW5jZQ==");
  });

  it("refuses text that is not canonical base64", () => {
    for (const text of ["abc", "ab=c", "a b=", "Y29t\ncGxp", "====", "é123"]) {
      expect(() => binaryScalar.parseValue(text), text).toThrow("Binary must be base64-encoded text.");
    }
  });

  it("handles base64 of hundreds of megabytes' size class without overflowing the stack", () => {
    const large = Buffer.alloc(30 * 1024 * 1024, 7).toString("base64");
    expect(binaryScalar.serialize(large)).toBe(large);
    expect(binaryScalar.parseValue(large).length).toBe(30 * 1024 * 1024);
  });
});

import { describe, expect, it } from "vitest";
import { parseEthereumAddress, toEip55Address } from "../../src/ownership/index.js";

/** The mixed-case examples of EIP-55 ("Test Cases"). */
const eip55Examples = [
  "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
  "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
  "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
];

/** EIP-55's all-caps and all-lower examples: no checksum is carried, so they are accepted as they are. */
const singleCaseExamples = [
  "0x52908400098527886E0F7030069857D2E4169EE7",
  "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
  "0xde709f2102306220921060314715629080e2fb77",
  "0x27b1fdb04752bbc536007a920d24acb045561c26",
];

describe("parseEthereumAddress", () => {
  it.each(eip55Examples)("accepts the EIP-55 example %s and computes the same checksum", (address) => {
    expect(toEip55Address(address.toLowerCase())).toBe(address);
    expect(parseEthereumAddress(address)).toMatchObject({ ok: true, checksummed: address });
  });

  it.each(singleCaseExamples)("accepts %s, which carries no checksum", (address) => {
    expect(parseEthereumAddress(address)).toMatchObject({ ok: true });
  });

  it("refuses a mixed-case address whose case does not match the checksum", () => {
    // One letter of the first EIP-55 example flipped to the wrong case.
    expect(parseEthereumAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD")).toMatchObject({
      ok: false,
      code: "INVALID_ADDRESS",
      reason: expect.stringContaining("EIP-55"),
    });
  });

  it("refuses anything that is not 0x and 40 hexadecimal characters", () => {
    for (const address of [
      "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe",
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd",
      "0xZZAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      " 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "",
    ]) {
      expect(parseEthereumAddress(address)).toMatchObject({ ok: false, code: "INVALID_ADDRESS" });
    }
  });
});

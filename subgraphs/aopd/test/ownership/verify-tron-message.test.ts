import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { base64 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { parseTronAddress, toTronAddress, verifyTronMessage } from "../../src/ownership/index.js";
import { signTronMessage, testSecretKey, tronAddressOf } from "@compliance-graph/test-kit";

/**
 * mrtnetwork/blockchain_utils `test/signer/tron_test.dart`: the key 0x4398...8038 signs
 * "message" with TRON's personal-message format (TIP-191), v = 27 + recovery id.
 */
const blockchainUtils = {
  secretKey: "43985273a3d94eb753fe6acfd7003e88254effce1eb53e2e97b8522558a98038",
  message: "message",
  signature: "fde00bc33d78109bc61de314c1c0526a047e22a2aaae473ca84b32d8aa35ed3e03720e05d614087e3d8c6fae63879755b32aa08818a2d4de66fee1a617a971671b",
};

const secretKey = testSecretKey("tron");
const address = tronAddressOf(secretKey);
const message = "I confirm that I control this address for CUST-1. Nonce: 0f3c";

describe("verifyTronMessage", () => {
  it("verifies the blockchain_utils vector, and signs it identically (RFC 6979 signatures are deterministic)", () => {
    const key = hexToBytes(blockchainUtils.secretKey);
    expect(verifyTronMessage({ address: tronAddressOf(key), message: blockchainUtils.message, signature: blockchainUtils.signature })).toEqual({
      ok: true,
      signerKey: expect.any(Uint8Array),
    });
    expect(bytesToHex(signTronMessage(key, blockchainUtils.message))).toBe(blockchainUtils.signature);
  });

  it("verifies a signMessageV2 signature of a key made in the test, in 0x-hex, bare hex and base64, v as 27/28 or 0/1", () => {
    const signature = signTronMessage(secretKey, message);
    for (const text of ["0x" + bytesToHex(signature), bytesToHex(signature), base64.encode(signature)]) {
      expect(verifyTronMessage({ address, message, signature: text })).toEqual({ ok: true, signerKey: expect.any(Uint8Array) });
    }
    const zeroBased = signature.slice();
    zeroBased[64] = (zeroBased[64] ?? 27) - 27;
    expect(verifyTronMessage({ address, message, signature: bytesToHex(zeroBased) })).toEqual({ ok: true, signerKey: expect.any(Uint8Array) });
  });

  it("fails for another message and another key's address", () => {
    const signature = bytesToHex(signTronMessage(secretKey, message));
    expect(verifyTronMessage({ address, message: `${message}.`, signature })).toMatchObject({ ok: false, code: "SIGNATURE_MISMATCH" });
    expect(verifyTronMessage({ address: tronAddressOf(testSecretKey("someone else")), message, signature })).toMatchObject({
      ok: false,
      code: "SIGNATURE_MISMATCH",
    });
  });

  it("refuses a signature in another encoding or of another length, saying which encodings are accepted", () => {
    const signature = signTronMessage(secretKey, message);
    const malformed = { ok: false, code: "MALFORMED_SIGNATURE", reason: "A TRON signature is 65 bytes, written as 0x-prefixed hexadecimal or base64." };
    for (const text of [bytesToHex(signature.subarray(0, 64)), "0x" + bytesToHex(signature) + "00", "not a signature"]) {
      expect(verifyTronMessage({ address, message, signature: text }), text).toEqual(malformed);
    }
  });
});

describe("parseTronAddress", () => {
  it("reads Tether's TRC-20 contract address as the 20 bytes of its hex form 41a614f8...", () => {
    const parsed = parseTronAddress("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t");
    expect(parsed.ok && bytesToHex(parsed.bytes)).toBe("a614f803b6fd780986a42c78ec9c7f77e6ded13c");
    expect(toTronAddress(hexToBytes("a614f803b6fd780986a42c78ec9c7f77e6ded13c"))).toBe("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t");
  });

  it("refuses another network's address and a mistyped one, saying what a TRON address is", () => {
    for (const wrong of ["0xa614f803b6fd780986a42c78ec9c7f77e6ded13c", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"]) {
      expect(parseTronAddress(wrong), wrong).toMatchObject({
        ok: false,
        code: "INVALID_ADDRESS",
        reason: expect.stringMatching(/base58check starting with T/),
      });
    }
    expect(parseTronAddress("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u")).toMatchObject({
      ok: false,
      code: "INVALID_ADDRESS",
      reason: expect.stringMatching(/checksum/),
    });
  });
});

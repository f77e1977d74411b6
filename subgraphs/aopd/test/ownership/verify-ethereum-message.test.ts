import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { base64 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { ethereumMessageHash, toEip55Address, verifyEthereumMessage } from "../../src/ownership/index.js";
import { ethereumAddressOf, signPersonalMessage, testSecretKey } from "@compliance-graph/test-kit";

/**
 * MetaMask eth-sig-util `personal-sign.test.ts` ("personalSign - kumavis fml manual test I"): the
 * key 0x69...69 signs "hello world", made with geth's internals.
 */
const ethSigUtil = {
  address: "0xbe93f9bacbcffc8ee6663f2647917ed7a20a57bb",
  message: "hello world",
  signature: "0xce909e8ea6851bc36c007a0072d0524b07a3ff8d4e623aca4c71ca8e57250c4d0a3fc38fa8fbaaa81ead4b9f6bd03356b6f8bf18bccad167d78891636e1d69561b",
};

const secretKey = testSecretKey("ethereum");
const address = ethereumAddressOf(secretKey);
const message = "I control this address. Proof request 7d1f3b2a for customer 42.";

const personalSign = (text: string, key = secretKey) => signPersonalMessage(key, text);

describe("verifyEthereumMessage", () => {
  it("verifies the eth-sig-util personal_sign vector", () => {
    expect(verifyEthereumMessage(ethSigUtil)).toEqual({ ok: true, signerKey: expect.any(Uint8Array) });
    expect(verifyEthereumMessage({ ...ethSigUtil, address: toEip55Address(ethSigUtil.address) })).toEqual({ ok: true, signerKey: expect.any(Uint8Array) });
  });

  it("verifies a signature of a key made in the test, in 0x-hex, bare hex and base64", () => {
    const signature = personalSign(message);
    for (const text of ["0x" + bytesToHex(signature), bytesToHex(signature), base64.encode(signature)]) {
      expect(verifyEthereumMessage({ address, message, signature: text })).toEqual({ ok: true, signerKey: expect.any(Uint8Array) });
    }
  });

  it("accepts v written as 0/1 as well as 27/28", () => {
    const signature = personalSign(message);
    signature[64] = (signature[64] ?? 27) - 27;
    expect(verifyEthereumMessage({ address, message, signature: "0x" + bytesToHex(signature) })).toEqual({ ok: true, signerKey: expect.any(Uint8Array) });
  });

  it("compares the address without regard to case", () => {
    const signature = "0x" + bytesToHex(personalSign(message));
    for (const claimed of [address.toLowerCase(), "0x" + address.slice(2).toUpperCase()]) {
      expect(verifyEthereumMessage({ address: claimed, message, signature })).toEqual({ ok: true, signerKey: expect.any(Uint8Array) });
    }
  });

  it("hashes the byte length of the message, not its character count", () => {
    const text = "Zürich, 東京 ✓";
    expect(verifyEthereumMessage({ address, message: text, signature: "0x" + bytesToHex(personalSign(text)) })).toEqual({
      ok: true,
      signerKey: expect.any(Uint8Array),
    });
  });

  it("fails for a tampered message, another address, a flipped v, and bad encodings", () => {
    const signature = personalSign(message);
    const hex = "0x" + bytesToHex(signature);
    expect(verifyEthereumMessage({ address, message: message + ".", signature: hex })).toMatchObject({ code: "SIGNATURE_MISMATCH" });
    expect(verifyEthereumMessage({ ...ethSigUtil, message, signature: hex })).toMatchObject({ code: "SIGNATURE_MISMATCH" });

    const flipped = Uint8Array.from(signature);
    flipped[64] = flipped[64] === 27 ? 28 : 27;
    expect(verifyEthereumMessage({ address, message, signature: "0x" + bytesToHex(flipped) })).toMatchObject({ ok: false });

    const badV = Uint8Array.from(signature);
    badV[64] = 29;
    expect(verifyEthereumMessage({ address, message, signature: "0x" + bytesToHex(badV) })).toMatchObject({
      code: "MALFORMED_SIGNATURE",
      reason: expect.stringContaining("(v)"),
    });
    expect(verifyEthereumMessage({ address, message, signature: hex.slice(0, -2) })).toMatchObject({ code: "MALFORMED_SIGNATURE" });
    expect(verifyEthereumMessage({ address, message, signature: "" })).toMatchObject({ code: "MALFORMED_SIGNATURE" });
    const zeros = "0x" + "00".repeat(64) + "1b";
    expect(verifyEthereumMessage({ address, message, signature: zeros })).toMatchObject({ code: "SIGNATURE_MISMATCH" });
  });

  it("refuses an invalid claimed address before looking at the signature", () => {
    expect(verifyEthereumMessage({ address: "0x1234", message, signature: "0x" + bytesToHex(personalSign(message)) })).toMatchObject({
      code: "INVALID_ADDRESS",
    });
  });

  it("hashes as personal_sign does", () => {
    // keccak256("\x19Ethereum Signed Message:\n11hello world"), the digest geth signs for the vector above.
    const recovered = secp256k1.Signature.fromBytes(hexToBytes(ethSigUtil.signature.slice(2, 130)))
      .addRecoveryBit(0)
      .recoverPublicKey(ethereumMessageHash("hello world"))
      .toBytes(false);
    expect("0x" + bytesToHex(keccak_256(recovered.subarray(1)).subarray(12))).toBe(ethSigUtil.address);
  });
});

import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { base58, base64 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { parseSolanaAddress, verifySolanaMessage } from "../../src/ownership/index.js";
import { signSolanaMessage, solanaAddressOf, testSecretKey } from "@compliance-graph/test-kit";

/** RFC 8032 section 7.1, TEST 1 (empty message) and TEST 2 (the one byte 0x72, "r"). */
const rfc8032 = [
  {
    publicKey: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
    message: "",
    signature: "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
  },
  {
    publicKey: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
    message: "r",
    signature: "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
  },
];

const secretKey = testSecretKey("solana");
const address = solanaAddressOf(secretKey);
const message = "I confirm that I control this address for CUST-1. Nonce: 0f3c";

describe("verifySolanaMessage", () => {
  it("verifies the RFC 8032 vectors, the public key written as a Solana address", () => {
    for (const vector of rfc8032) {
      const signature = hexToBytes(vector.signature);
      const input = { address: base58.encode(hexToBytes(vector.publicKey)), message: vector.message };
      expect(verifySolanaMessage({ ...input, signature: base58.encode(signature) })).toEqual({ ok: true });
      expect(verifySolanaMessage({ ...input, signature: base64.encode(signature) })).toEqual({ ok: true });
    }
  });

  it("verifies a wallet's signMessage of a key made in the test, over the UTF-8 bytes of any text", () => {
    for (const text of [message, "Zürich, 東京 ✓\nsecond line"]) {
      const signature = signSolanaMessage(secretKey, text);
      expect(verifySolanaMessage({ address, message: text, signature: base58.encode(signature) })).toEqual({ ok: true });
      expect(verifySolanaMessage({ address, message: text, signature: base64.encode(signature) })).toEqual({ ok: true });
    }
  });

  it("fails for another message, another key's address, and a flipped bit", () => {
    const signature = signSolanaMessage(secretKey, message);
    const mismatch = { ok: false, code: "SIGNATURE_MISMATCH" };
    expect(verifySolanaMessage({ address, message: `${message}.`, signature: base58.encode(signature) })).toMatchObject(mismatch);
    expect(verifySolanaMessage({ address: solanaAddressOf(testSecretKey("someone else")), message, signature: base58.encode(signature) })).toMatchObject(
      mismatch,
    );
    const flipped = signature.slice();
    flipped[10]! ^= 1;
    expect(verifySolanaMessage({ address, message, signature: base58.encode(flipped) })).toMatchObject(mismatch);
  });

  it("refuses a signature in another encoding or of another length, saying which encodings are accepted", () => {
    const signature = signSolanaMessage(secretKey, message);
    const malformed = { ok: false, code: "MALFORMED_SIGNATURE", reason: "A Solana signature is 64 bytes, written as base58 or base64." };
    for (const text of [
      "0x" + bytesToHex(signature),
      bytesToHex(signature),
      base58.encode(signature.subarray(1)),
      base64.encode(signature).replace(/=+$/, ""),
      "",
    ]) {
      expect(verifySolanaMessage({ address, message, signature: text }), text).toEqual(malformed);
    }
  });
});

describe("parseSolanaAddress", () => {
  it("accepts the base58 of 32 bytes and refuses anything else, saying what an address is", () => {
    expect(parseSolanaAddress("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")).toMatchObject({ ok: true });
    for (const wrong of [
      "0x" + "ab".repeat(20),
      "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
      "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
      base58.encode(new Uint8Array(33).fill(7)),
      "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1O",
    ]) {
      expect(parseSolanaAddress(wrong), wrong).toMatchObject({
        ok: false,
        code: "INVALID_ADDRESS",
        reason: expect.stringMatching(/base58 of a 32-byte public key/),
      });
    }
  });
});

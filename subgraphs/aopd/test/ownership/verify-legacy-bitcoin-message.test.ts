import { bytesToHex } from "@noble/hashes/utils.js";
import { base64 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { bitcoinMessageHash } from "../../src/ownership/bitcoin-message-hash.js";
import { verifyBitcoinMessage } from "../../src/ownership/index.js";
import { p2pkhAddress, p2shP2wpkhAddress, p2wpkhAddress, publicKeyOf, signLegacy, testSecretKey } from "@compliance-graph/test-kit";

/** bitcoinjs-message `test/fixtures.json`: key 1 (d = 1) and another key sign "vires is numeris". */
const bitcoinjsMessage = {
  message: "vires is numeris",
  uncompressed: ["16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM", "G8JawPtQOrybrSP1WHQnQPr67B9S3qrxBrl1mlzoTJOSHEpmnF7D3+t+LX0Xei9J20B5AIdPbeL3AaTBZ4N3bY0="],
  compressed: ["1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs", "H8JawPtQOrybrSP1WHQnQPr67B9S3qrxBrl1mlzoTJOSHEpmnF7D3+t+LX0Xei9J20B5AIdPbeL3AaTBZ4N3bY0="],
  // BIP-137 headers 35-38 and 39-42.
  p2shP2wpkh: ["3JvL6Ymt8MVWiCNHC7oWU6nLeHNJKLZGLN", "JF8nHqFr3K2UKYahhX3soVeoW8W1ECNbr0wfck7lzyXjCS5Q16Ek45zyBuy1Fiy9sTPKVgsqqOuPvbycuVSSVl8="],
  p2wpkh: ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "KF8nHqFr3K2UKYahhX3soVeoW8W1ECNbr0wfck7lzyXjCS5Q16Ek45zyBuy1Fiy9sTPKVgsqqOuPvbycuVSSVl8="],
} as const;

/**
 * bip322-js `test/Verifier.test.ts`: one compressed-key signature (header 32) of "Hello World",
 * verified against the P2PKH, P2SH-P2WPKH and P2WPKH addresses of key 02f7fb07...; the
 * Electrum/Trezor convention of signing segwit addresses with a compressed-key header.
 */
const compressedHeaderForSegwit = {
  message: "Hello World",
  signature: "IAtVrymJqo43BCt9f7Dhl6ET4Gg3SmhyvdlW6wn9iWc9PweD7tNM5+qw7xE9/bzlw/Et789AQ2F59YKEnSzQudo=",
  addresses: [
    "1QDZfWJTVXqHFmJFRkyrnidvHyPyG5bynY",
    "36mTiayp1ZCcMr8t8KDdnVGSiz7Pd1cNie",
    "bc1ql64jd2pewssuuehu6g7kh6ud54amq5n8t95eeq",
    "n4jWxZPSJZGY2sms9KxEcdrF9xzgEbrHHj",
    "2MxKfnKuqd1hxZdmRoSqWQSFhwLKZRQ3NpZ",
    "tb1ql64jd2pewssuuehu6g7kh6ud54amq5n8pr02zn",
  ],
};

/** Electrum, native segwit on testnet (bitonicnl/verify-signed-message `verifier_test.go`). */
const electrumTestnet = {
  address: "tb1qr97cuq4kvq7plfetmxnl6kls46xaka78n2288z",
  message: "The outage comes at a time when bitcoin has been fast approaching new highs not seen since June 26, 2019.",
  signature: "H/bSByRH7BW1YydfZlEx9x/nt4EAx/4A691CFlK1URbPEU5tJnTIu4emuzkgZFwC0ptvKuCnyBThnyLDCqPqT10=",
};

describe("legacy Bitcoin message signatures", () => {
  it("hashes messages as bitcoinjs-message's magicHash fixtures", () => {
    expect(bytesToHex(bitcoinMessageHash(""))).toBe("80e795d4a4caadd7047af389d9f7f220562feb6196032e2131e10563352c4bcc");
    expect(bytesToHex(bitcoinMessageHash("Vires is Numeris"))).toBe("f8a5affbef4a3241b19067aa694562f64f513310817297089a8929a930f4f933");
  });

  it.each(["uncompressed", "compressed", "p2shP2wpkh", "p2wpkh"] as const)("verifies the bitcoinjs-message %s vector", (form) => {
    const [address, signature] = bitcoinjsMessage[form];
    expect(verifyBitcoinMessage({ address, message: bitcoinjsMessage.message, signature })).toEqual({
      ok: true,
      scheme: "legacy",
      signerKey: expect.any(Uint8Array),
    });
  });

  it("verifies the bitcoinjs-message README vector and Bitcoin Core style P2PKH signatures", () => {
    expect(
      verifyBitcoinMessage({
        address: "1F3sAm6ZtwLAUnj7d38pGFxtP3RVEvtsbV",
        message: "This is an example of a signed message.",
        signature: "H9L5yLFjti0QTHhPyFrZCT1V/MMnBtXKmoiKDZ78NDBjERki6ZTQZdSMCtkgoNmp17By9ItJr8o7ChX0XxY91nk=",
      }),
    ).toEqual({ ok: true, scheme: "legacy", signerKey: expect.any(Uint8Array) });
    // btclib `tests/ecc/test_bms.py`, via bitonicnl/verify-signed-message.
    expect(
      verifyBitcoinMessage({
        address: "1DAag8qiPLHh6hMFVu9qJQm9ro1HtwuyK5",
        message: "test message",
        signature: "IFqUo4/sxBEFkfK8mZeeN56V13BqOc0D90oPBChF3gTqMXtNSCTN79UxC33kZ8Mi0cHy4zYCnQfCxTyLpMVXKeA=",
      }),
    ).toEqual({ ok: true, scheme: "legacy", signerKey: expect.any(Uint8Array) });
  });

  it.each(compressedHeaderForSegwit.addresses)("accepts a compressed-key header for every single-key form: %s", (address) => {
    const { message, signature } = compressedHeaderForSegwit;
    expect(verifyBitcoinMessage({ address, message, signature })).toEqual({ ok: true, scheme: "legacy", signerKey: expect.any(Uint8Array) });
  });

  it("verifies an Electrum signature of a testnet native segwit address", () => {
    expect(verifyBitcoinMessage(electrumTestnet)).toEqual({ ok: true, scheme: "legacy", signerKey: expect.any(Uint8Array) });
  });

  it("does not cross-verify compressed and uncompressed keys (bitcoinjs-message invalid fixtures)", () => {
    const { message, uncompressed, compressed } = bitcoinjsMessage;
    const mismatch = { code: "SIGNATURE_MISMATCH" };
    expect(verifyBitcoinMessage({ address: uncompressed[0], message, signature: compressed[1] })).toMatchObject(mismatch);
    expect(verifyBitcoinMessage({ address: compressed[0], message, signature: uncompressed[1] })).toMatchObject(mismatch);
    expect(verifyBitcoinMessage({ address: uncompressed[0], message: "foobar", signature: uncompressed[1] })).toMatchObject({
      code: "SIGNATURE_MISMATCH",
    });
  });

  describe("with keys made in the test", () => {
    const secret = testSecretKey("legacy");
    const compressed = publicKeyOf(secret);
    const message = "Proof request 0c5e: I control this address.";
    const forms = [
      ["uncompressed P2PKH", p2pkhAddress(publicKeyOf(secret, false)), 27],
      ["compressed P2PKH", p2pkhAddress(compressed), 31],
      ["BIP-137 P2SH-P2WPKH", p2shP2wpkhAddress(compressed), 35],
      ["BIP-137 P2WPKH", p2wpkhAddress(compressed), 39],
      ["Electrum P2SH-P2WPKH", p2shP2wpkhAddress(compressed), 31],
      ["Electrum P2WPKH", p2wpkhAddress(compressed), 31],
      ["testnet P2WPKH", p2wpkhAddress(compressed, "tb"), 39],
      ["regtest P2WPKH", p2wpkhAddress(compressed, "bcrt"), 39],
    ] as const;

    it.each(forms)("verifies a %s signature", (_, address, header) => {
      const signature = signLegacy(secret, message, header);
      expect(verifyBitcoinMessage({ address, message, signature })).toEqual({ ok: true, scheme: "legacy", signerKey: expect.any(Uint8Array) });
    });

    it.each(forms)("rejects a %s signature over a tampered message", (_, address, header) => {
      const signature = signLegacy(secret, message, header);
      expect(verifyBitcoinMessage({ address, message: message.replace("0c5e", "0c5f"), signature })).toMatchObject({
        ok: false,
        code: "SIGNATURE_MISMATCH",
      });
    });

    it("rejects the signature for another key's address", () => {
      const other = publicKeyOf(testSecretKey("someone else"));
      for (const [address, header] of [
        [p2pkhAddress(other), 31],
        [p2shP2wpkhAddress(other), 35],
        [p2wpkhAddress(other), 39],
      ] as const) {
        expect(verifyBitcoinMessage({ address, message, signature: signLegacy(secret, message, header) })).toMatchObject({
          code: "SIGNATURE_MISMATCH",
        });
      }
    });

    it("rejects a header that names another address form", () => {
      const cases = [
        [p2pkhAddress(compressed), 35],
        [p2pkhAddress(compressed), 39],
        [p2wpkhAddress(compressed), 35],
        [p2shP2wpkhAddress(compressed), 39],
        [p2wpkhAddress(compressed), 27],
      ] as const;
      for (const [address, header] of cases) {
        expect(verifyBitcoinMessage({ address, message, signature: signLegacy(secret, message, header) })).toMatchObject({
          code: "SIGNATURE_MISMATCH",
          reason: expect.stringContaining("cannot prove control"),
        });
      }
    });

    it("rejects a changed recovery id and header bytes outside 27..42", () => {
      const address = p2pkhAddress(compressed);
      const bytes = base64.decode(signLegacy(secret, message, 31));
      const otherRecovery = Uint8Array.from(bytes);
      otherRecovery[0] = 31 + (((bytes[0] ?? 31) - 31) ^ 1);
      expect(verifyBitcoinMessage({ address, message, signature: base64.encode(otherRecovery) })).toMatchObject({ ok: false });
      for (const header of [0, 26, 43, 255]) {
        const wrong = Uint8Array.from(bytes);
        wrong[0] = header;
        expect(verifyBitcoinMessage({ address, message, signature: base64.encode(wrong) })).toMatchObject({
          code: "MALFORMED_SIGNATURE",
          reason: expect.stringContaining("header"),
        });
      }
    });

    it("rejects truncated, padded and non-base64 signatures", () => {
      const address = p2pkhAddress(compressed);
      const bytes = base64.decode(signLegacy(secret, message, 31));
      const malformed = [base64.encode(bytes.subarray(0, 64)), base64.encode(Uint8Array.of(...bytes, 0)), "not base64!", ""];
      for (const signature of malformed) {
        expect(verifyBitcoinMessage({ address, message, signature })).toMatchObject({ ok: false, code: "MALFORMED_SIGNATURE" });
      }
    });

    it("rejects r or s outside the curve order without throwing", () => {
      const address = p2wpkhAddress(compressed);
      const zeros = Uint8Array.of(39, ...new Uint8Array(64));
      const ones = Uint8Array.of(39, ...new Uint8Array(64).fill(0xff));
      for (const signature of [zeros, ones]) {
        expect(verifyBitcoinMessage({ address, message, signature: base64.encode(signature) })).toMatchObject({
          code: "SIGNATURE_MISMATCH",
        });
      }
    });
  });
});

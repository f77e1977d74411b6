import { bytesToHex, concatBytes } from "@noble/hashes/utils.js";
import { base64 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { bip322MessageHash, bip322ToSign, bip322ToSpend, displayTxid } from "../../src/ownership/bip322-virtual-transactions.js";
import { parseBitcoinAddress, verifyBitcoinMessage } from "../../src/ownership/index.js";
import { taprootOutputKey } from "../../src/ownership/taproot-output-key.js";
import {
  bip322WitnessPublicKeyHash,
  encodeWitness,
  p2shP2wpkhAddress,
  p2trAddress,
  p2wpkhAddress,
  publicKeyOf,
  secretFromWif,
  signBip322PublicKeyHash,
  signBip322Taproot,
  taprootKeyPair,
  testSecretKey,
} from "@compliance-graph/test-kit";

/** The BIP-322 test key and its addresses (BIP text, "Test vectors", and bip-0322/basic-test-vectors.json). */
const bip322Key = "L3VFeEujGtevx9w18HD1fhRbCH67Az2dpCymeRE1SoPK6XQtaN2k";
const bip322P2wpkh = "bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l";
const bip322P2tr = "bc1ppv609nr0vr25u07u95waq5lucwfm6tde4nydujnu8npg4q75mr5sxq8lt3";

/** BIP-322 "Message signing": both signatures the BIP lists for each message verify. */
const bip322Signatures = [
  ["", "AkcwRAIgM2gBAQqvZX15ZiysmKmQpDrG83avLIT492QBzLnQIxYCIBaTpOaD20qRlEylyxFSeEA2ba9YOixpX8z46TSDtS40ASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI="],
  ["", "AkgwRQIhAPkJ1Q4oYS0htvyuSFHLxRQpFAY56b70UvE7Dxazen0ZAiAtZfFz1S6T6I23MWI2lK/pcNTWncuyL8UL+oMdydVgzAEhAsfxIAMZZEKUPYWI4BruhAQjzFT8FSFSajuFwrDL1Yhy"],
  [
    "Hello World",
    "AkcwRAIgZRfIY3p7/DoVTty6YZbWS71bc5Vct9p9Fia83eRmw2QCICK/ENGfwLtptFluMGs2KsqoNSk89pO7F29zJLUx9a/sASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI=",
  ],
  [
    "Hello World",
    "AkgwRQIhAOzyynlqt93lOKJr+wmmxIens//zPzl9tqIOua93wO6MAiBi5n5EyAcPScOjf1lAqIUIQtr3zKNeavYabHyR8eGhowEhAsfxIAMZZEKUPYWI4BruhAQjzFT8FSFSajuFwrDL1Yhy",
  ],
] as const;

/** Taproot key path with SIGHASH_ALL: Bitcoin Core `util_tests.cpp` (BIP-322 PR #24058), "Hello World". */
const taprootSighashAll = "AUHd69PrJQEv+oKTfZ8l+WROBHuy9HKrbFCJu7U1iK2iiEy1vMU5EfMtjc+VSHM7aU0SDbak5IUZRVno2P5mjSafAQ==";

/** bitcoin/bips `bip-0322/basic-test-vectors.json` and `generated-test-vectors.json`, "simple" entries we support. */
const bipJsonVectors = [
  [
    "No prefix fallback",
    "bc1pss0zhytly75awhm6x2hhvd5lnzv3vssgrf9axfheq8ldyzn88ges79fler",
    "AUCJYOwOjxYAvatTAGYaVlNXBVyFuc4MwNQkOuK2tl8xhfKDONd0NjfYyNSYcRqeCp8hsAnCEPHAVEkO9h6vbQ/R",
  ],
  [
    "TPIZPITUIHEUHO5ACOL6W6MBVD",
    "bc1p9cyuceaazr8cz46mvgkzl94wy397mwpqsrk84su37t72jvkg6wzqv52nfp",
    "AUBay6NwR4LEYedkTG+vE9F7C0RTOCB5NH6ZAqf+3hudjHIkOzSZk1jW/5Kt0wRKX3llJ25os+0qktdou4/Y8516",
  ],
  [
    "ESHJI7MWUL64AXHBI42L3UR4QA",
    "bc1qkntwc3c4dzxh9xh6875l03fn3vkk023jgak3u7",
    "AkcwRAIgCYHF/vn67iZX5WBimh84kqD6pTME6eNCMGhfFnnwCNECIAF3nMCk/RfLit+uv8a8FgfQIw0f0ASE21GSz7rX17PsASEDTA2vM8bOtUFgvenSDUmvkq7aWNwoTB0CMiM6carHY1s=",
  ],
  [
    "Hello World",
    bip322P2wpkh,
    "smpAkcwRAIgZRfIY3p7/DoVTty6YZbWS71bc5Vct9p9Fia83eRmw2QCICK/ENGfwLtptFluMGs2KsqoNSk89pO7F29zJLUx9a/sASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI=",
  ],
] as const;

/** bip322-js 3.0 README key (the BIP-322 key) nested as P2SH-P2WPKH, "Hello World". */
const nestedSegwit = {
  address: "37qyp7jQAzqb2rCBpMvVtLDuuzKAUCVnJb",
  message: "Hello World",
  signature: "AkcwRAIgRfq2Gfv9guFcXAf2vQEJSHX8FP5OuiHs1DSK1I0wk/0CIGPzqm6QNPTDJuki148OQ2DbJtXyrr71s4xYPwogQUupASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI=",
};

describe("BIP-322 virtual transactions", () => {
  const vectors = [
    // [message, message_hash, to_spend txid, to_sign txid] from the BIP and basic-test-vectors.json
    [
      "",
      "c90c269c4f8fcbe6880f72a721ddfbf1914268a794cbb21cfafee13770ae19f1",
      "c5680aa69bb8d860bf82d4e9cd3504b55dde018de765a91bb566283c545a99a7",
      "1e9654e951a5ba44c8604c4de6c67fd78a27e81dcadcfe1edf638ba3aaebaed6",
    ],
    [
      "Hello World",
      "f0eb03b1a75ac6d9847f55c624a99169b5dccba2a31f5b23bea77ba270de0a7a",
      "b79d196740ad5217771c1098fc4a4b51e0535c32236c71f1ea4d61a2d603352b",
      "88737ae86f2077145f93cc4b153ae9a1cb8d56afa511988c149c5c8c9d93bddf",
    ],
    [
      "UTF-8 support: öäüéàè 测试文本 \uD83D\uDE04",
      "43936b237ea38c7794eb5d755e0d220b6db92ebfc5c8f482759d22b1286376d7",
      "c8f4f525fe8afb1bc09b44175bd2096f079c98425e8a1be676b712add1fb62f0",
      "8f488e06b89eafd019ec528109eafaf7f1d1811fd617aa1eeb9658f1c1be6586",
    ],
  ] as const;

  it.each(vectors)("matches the published hashes for message %j", (message, messageHash, toSpendTxid, toSignTxid) => {
    const address = parseBitcoinAddress(bip322P2wpkh);
    if (!address.ok) throw new Error(address.reason);
    expect(bytesToHex(bip322MessageHash(message))).toBe(messageHash);
    const toSpend = bip322ToSpend(address.scriptPubKey, message);
    expect(displayTxid(toSpend.txid)).toBe(toSpendTxid);
    expect(displayTxid(bip322ToSign(toSpend.txid).txid)).toBe(toSignTxid);
  });
});

describe("BIP-322 simple signatures", () => {
  it.each(bip322Signatures)("verifies the BIP's P2WPKH signature for message %j", (message, signature) => {
    expect(verifyBitcoinMessage({ address: bip322P2wpkh, message, signature })).toEqual({
      ok: true,
      scheme: "bip322-simple",
      signerKey: expect.any(Uint8Array),
    });
  });

  it("verifies the same P2WPKH signatures for the key's testnet and regtest addresses", () => {
    const [message, signature] = bip322Signatures[2];
    for (const address of ["tb1q9vza2e8x573nczrlzms0wvx3gsqjx7vaxwd45v", "bcrt1q9vza2e8x573nczrlzms0wvx3gsqjx7vay85cr9"]) {
      expect(verifyBitcoinMessage({ address, message, signature })).toEqual({ ok: true, scheme: "bip322-simple", signerKey: expect.any(Uint8Array) });
    }
  });

  it("verifies the Taproot SIGHASH_ALL vector and refuses it for another message", () => {
    expect(verifyBitcoinMessage({ address: bip322P2tr, message: "Hello World", signature: taprootSighashAll })).toEqual({
      ok: true,
      scheme: "bip322-simple",
    });
    const otherMessage = { address: bip322P2tr, message: "Hello World - This should fail", signature: taprootSighashAll };
    expect(verifyBitcoinMessage(otherMessage)).toMatchObject({ code: "SIGNATURE_MISMATCH" });
  });

  it.each(bipJsonVectors)("verifies the BIP JSON vector for message %j", (message, address, signature) => {
    // A P2WPKH signature carries its key, handed on; a Taproot key-path signature carries none.
    const carried = address.startsWith("bc1q") ? { signerKey: expect.any(Uint8Array) } : {};
    expect(verifyBitcoinMessage({ address, message, signature })).toEqual({ ok: true, scheme: "bip322-simple", ...carried });
  });

  it("verifies a nested segwit (P2SH-P2WPKH) signature", () => {
    expect(verifyBitcoinMessage(nestedSegwit)).toEqual({ ok: true, scheme: "bip322-simple", signerKey: expect.any(Uint8Array) });
    expect(verifyBitcoinMessage({ ...nestedSegwit, message: "" })).toMatchObject({ code: "SIGNATURE_MISMATCH" });
  });

  it("derives the BIP-322 key's Taproot address with the BIP-86 tweak", () => {
    const secret = secretFromWif(bip322Key);
    expect(p2wpkhAddress(publicKeyOf(secret))).toBe(bip322P2wpkh);
    expect(p2trAddress(taprootOutputKey(publicKeyOf(secret)))).toBe(bip322P2tr);
    expect(p2trAddress(taprootKeyPair(secret).outputKey)).toBe(bip322P2tr);
  });

  it("refuses the BIP JSON error vectors", () => {
    const empty = bip322Signatures[0][1];
    const cases = [
      ["", bip322P2wpkh, "not-valid-base64!!!", "MALFORMED_SIGNATURE"],
      ["", bip322P2wpkh, "", "MALFORMED_SIGNATURE"],
      ["Wrong message that was not signed", bip322P2wpkh, "smp" + empty, "SIGNATURE_MISMATCH"],
      ["", bip322P2wpkh, "smpAA==", "MALFORMED_SIGNATURE"],
      ["", bip322P2wpkh, "fooAA==", "MALFORMED_SIGNATURE"],
      [
        "incorrect prefix",
        "bc1pyrgrm6cu6n54jrvkdjd9rvyd3xfyu84s2623awu2srn6mxhscwpsm5644w",
        "fulAUDZwFXUp+adN+/UZj5dVrGAbB3zKs1Vcalz5fCF9srxS63eSWNGvH1NYbrBkPt1BJDUyWUz9zgUxfc63/QheT6M",
        "UNSUPPORTED_SIGNATURE",
      ],
      ["OVKTTPEFKLUOTAOJSPCKIHCQZW", "bc1qkntwc3c4dzxh9xh6875l03fn3vkk023jgak3u7", bipJsonVectors[2][2], "SIGNATURE_MISMATCH"],
      ["ESHJI7MWUL64AXHBI42L3UR4QA", "bc1qx3f9s3scavc92s3g2fhwzqzn7qucd37ez03jpf", bipJsonVectors[2][2], "SIGNATURE_MISMATCH"],
      ["IHUVDIXOZV7EE7RU6CP7JUS57N", "bc1p9cyuceaazr8cz46mvgkzl94wy397mwpqsrk84su37t72jvkg6wzqv52nfp", bipJsonVectors[1][2], "SIGNATURE_MISMATCH"],
      ["TPIZPITUIHEUHO5ACOL6W6MBVD", "bc1pr72av8sh7qc2ssxs8w0hlj0cl82g2q2dvypngzgsrmd4plml84ksmfyv0q", bipJsonVectors[1][2], "SIGNATURE_MISMATCH"],
    ] as const;
    for (const [message, address, signature, code] of cases) {
      expect(verifyBitcoinMessage({ address, message, signature })).toMatchObject({ ok: false, code });
    }
  });

  it("verifies the BIP's 3-of-3 P2WSH multisig vector, and refuses full-format signatures as unsupported, not as forged", () => {
    // basic-test-vectors.json: a 3-of-3 P2WSH simple signature, and a P2PKH full signature from the generated vectors.
    const p2wsh = {
      address: "bc1qp0ahvfh83088w49k405szqgg4f3pptr7p2g06tdxfjcd40z4lh4q95lsz9",
      message: "This will be a p2wsh 3-of-3 multisig BIP 322 signed message",
      signature:
        "smpBQBHMEQCIFX9aaqPJWq2Ff2kpen5bFDTid+ehgUOpHV0LfjncXy4AiA3GNicF7aKPzdpa9PCpmaYQs3pHd+qbvvhXdxOCKCAMAFIMEUCIQD/ELXg6CNYyUQijCg96JtgvgjZb9dsl1Ctof4QAeyTcQIgVM/1AAblFl/DCt6A1gJg+T/i2qU5SQD09+chFJzolRwBSDBFAiEAlqRfSFyWNVQhvaCnmeV5tyneiCWMTcFbuujoD/pFa3wCIGnZjfQb8NolSYq9asV+ZeBSkCGHJcqnaV4JYS5MYPEGAWlTIQJ1aLEfEi/4p7wcV+XHZCBVvGGJZ7L3v+jhH+mZA8lN0yECCovfec+kIdllXpKCgA8RX/HZ2x5yHOtCSKP8/sf6pnwhAwxSng6kCgCXXSAmJOOZFdr3vdK3HzGqCFloOHgc5fM6U64=",
    };
    expect(verifyBitcoinMessage(p2wsh)).toMatchObject({ ok: true, scheme: "bip322-script", script: { template: "multi", threshold: 3, keyCount: 3 } });
    expect(verifyBitcoinMessage({ ...p2wsh, message: "" })).toMatchObject({ code: "SIGNATURE_MISMATCH" });
    const full = {
      address: "164P4mbDkPcyvRnFGAZd1ThjxSj7Fbsywz",
      message: "GI2SVNWVCWTEEIMFZFFZYAQNSA",
      signature:
        "AgAAAAGEmHuloQANVIqnpMegGLNFKwAGE0Urv0a/uMiHnJ+FQwAAAABrSDBFAiEAr8VdqPCZU/oVqKKj2WwHfeCX/lzp+Rfk8d59cS9xdGECIAar0nievDdeVstmIgjfM7kzMepL6HrecBuJtgEitFxBASECzgU8WF30ffzpbdClcw/0NBkTCkuRbiEzr+CTXePjiPfgBwAAAQAAAAAAAAAAAWrgBwAA",
    };
    expect(verifyBitcoinMessage(full)).toMatchObject({ code: "UNSUPPORTED_SIGNATURE" });
  });

  describe("with keys made in the test", () => {
    const secret = testSecretKey("bip322");
    const publicKey = publicKeyOf(secret);
    const message = "Proof request 91aa: I control this address.";
    const taproot = p2trAddress(taprootKeyPair(secret).outputKey);

    it("verifies P2WPKH and P2SH-P2WPKH on every network", () => {
      const addresses = [p2wpkhAddress(publicKey), p2wpkhAddress(publicKey, "tb"), p2shP2wpkhAddress(publicKey), p2shP2wpkhAddress(publicKey, "testnet")];
      for (const address of addresses) {
        const signature = signBip322PublicKeyHash(secret, address, message);
        expect(verifyBitcoinMessage({ address, message, signature })).toEqual({ ok: true, scheme: "bip322-simple", signerKey: publicKey });
        expect(verifyBitcoinMessage({ address, message: message + " ", signature })).toMatchObject({ code: "SIGNATURE_MISMATCH" });
      }
    });

    it("verifies Taproot with SIGHASH_DEFAULT (64 bytes) and SIGHASH_ALL (65 bytes)", () => {
      for (const hashType of [0x00, 0x01] as const) {
        const signature = signBip322Taproot(secret, message, hashType);
        expect(base64.decode(signature).length).toBe(hashType === 0x00 ? 66 : 67);
        expect(verifyBitcoinMessage({ address: taproot, message, signature })).toEqual({ ok: true, scheme: "bip322-simple" });
        expect(verifyBitcoinMessage({ address: taproot, message: "", signature })).toMatchObject({ code: "SIGNATURE_MISMATCH" });
      }
    });

    it("refuses a Taproot signature with an explicit SIGHASH_DEFAULT byte or another sighash type", () => {
      const raw = base64.decode(signBip322Taproot(secret, message, 0x00)).subarray(2);
      for (const type of [0x00, 0x02, 0x03, 0x81, 0x83]) {
        const signature = base64.encode(encodeWitness([concatBytes(raw, Uint8Array.of(type))]));
        expect(verifyBitcoinMessage({ address: taproot, message, signature })).toMatchObject({ code: "MALFORMED_SIGNATURE" });
      }
    });

    it("refuses truncated, extended and multi-item Taproot witnesses", () => {
      const raw = base64.decode(signBip322Taproot(secret, message, 0x00)).subarray(2);
      const malformed = [encodeWitness([raw.subarray(0, 63)]), encodeWitness([concatBytes(raw, Uint8Array.of(0x01, 0x00))])];
      for (const witness of malformed) {
        expect(verifyBitcoinMessage({ address: taproot, message, signature: base64.encode(witness) })).toMatchObject({
          code: "MALFORMED_SIGNATURE",
        });
      }
      // A script path whose control block does not commit to the address is not this address's.
      const scriptPath = encodeWitness([raw, Uint8Array.of(0x51), Uint8Array.of(0xc0, ...new Uint8Array(32))]);
      expect(verifyBitcoinMessage({ address: taproot, message, signature: base64.encode(scriptPath) })).toMatchObject({
        code: "SIGNATURE_MISMATCH",
      });
      const annex = encodeWitness([raw, Uint8Array.of(0x50, 0x01)]);
      expect(verifyBitcoinMessage({ address: taproot, message, signature: base64.encode(annex) })).toMatchObject({
        code: "UNSUPPORTED_SIGNATURE",
      });
    });

    it("refuses a P2WPKH witness with a wrong sighash byte, an uncompressed key, or a missing item", () => {
      const address = p2wpkhAddress(publicKey);
      const [signature, key] = bip322WitnessPublicKeyHash(secret, address, message);
      if (signature === undefined || key === undefined) throw new Error("witness has two items");
      const withType = (type: number) => concatBytes(signature.subarray(0, -1), Uint8Array.of(type));
      const cases = [[withType(0x02), key], [withType(0x81), key], [signature, publicKeyOf(secret, false)], [signature], [signature, key, Uint8Array.of(0x00)]];
      for (const items of cases) {
        expect(verifyBitcoinMessage({ address, message, signature: base64.encode(encodeWitness(items)) })).toMatchObject({ ok: false });
      }
    });

    it("refuses a BIP-322 simple signature for a P2PKH address", () => {
      const address = "1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH";
      const signature = signBip322PublicKeyHash(secret, p2wpkhAddress(publicKey), message);
      expect(verifyBitcoinMessage({ address, message, signature })).toMatchObject({ code: "UNSUPPORTED_SIGNATURE" });
    });
  });
});

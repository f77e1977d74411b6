import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { concatBytes } from "@noble/hashes/utils.js";
import { base58, base64 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { parseStrictDerSignature } from "../../src/ownership/parse-strict-der-signature.js";
import { findXpubDerivation, parseExtendedPublicKey, verifyBitcoinMessage, verifyOwnershipSignature } from "../../src/ownership/index.js";
import {
  bip322WitnessPublicKeyHash,
  encodeWitness,
  ethereumAddressOf,
  p2shP2wpkhAddress,
  p2trAddress,
  p2wpkhAddress,
  publicKeyOf,
  signBip322PublicKeyHash,
  signBip322Taproot,
  signLegacy,
  signPersonalMessage,
  signTronMessage,
  taprootKeyPair,
  testSecretKey,
  tronAddressOf,
} from "@compliance-graph/test-kit";

/**
 * Security regressions, each written as the attack it stops: someone without the victim's key
 * tries to get a proof of control for the victim's address accepted.
 */

const attacker = testSecretKey("attacker");
const victim = testSecretKey("victim");
const victimP2wpkh = p2wpkhAddress(publicKeyOf(victim));
const requested = "AOPP proof request 5521: I control this address.";

function bitcoin(address: string, signature: string, message = requested) {
  return verifyOwnershipSignature({ assetFamily: "bitcoin", address, message, signature });
}

describe("proof-of-control forgery attempts", () => {
  it("a TRON signature replayed as an Ethereum proof, or the other way round, fails although key and 20-byte address are the same", () => {
    const tronSignature = base64.encode(signTronMessage(victim, requested));
    const ethereumSignature = base64.encode(signPersonalMessage(victim, requested));
    expect(
      verifyOwnershipSignature({ assetFamily: "ethereum", address: ethereumAddressOf(victim), message: requested, signature: tronSignature }),
    ).toMatchObject({ code: "SIGNATURE_MISMATCH" });
    expect(verifyOwnershipSignature({ assetFamily: "tron", address: tronAddressOf(victim), message: requested, signature: ethereumSignature })).toMatchObject({
      code: "SIGNATURE_MISMATCH",
    });
  });

  it("a Solana address that is a small-order point, for which a signature needs no secret, proves nothing", () => {
    // The identity point (y = 1): R = identity and S = 0 satisfy the verification equation for any message.
    const identity = new Uint8Array(32);
    identity[0] = 1;
    const forged = new Uint8Array(64);
    forged.set(identity, 0);
    expect(ed25519.verify(forged, new TextEncoder().encode(requested), identity)).toBe(true);
    expect(
      verifyOwnershipSignature({ assetFamily: "solana", address: base58.encode(identity), message: requested, signature: base58.encode(forged) }),
    ).toMatchObject({ code: "SIGNATURE_MISMATCH" });
  });

  it("replaying the victim's proof made for another request fails", () => {
    const oldProof = signBip322PublicKeyHash(victim, victimP2wpkh, "AOPP proof request 0001: I control this address.");
    expect(bitcoin(victimP2wpkh, oldProof)).toMatchObject({ ok: false, code: "SIGNATURE_MISMATCH" });
    const oldLegacy = signLegacy(victim, "AOPP proof request 0001: I control this address.", 39);
    expect(bitcoin(victimP2wpkh, oldLegacy)).toMatchObject({ ok: false, code: "SIGNATURE_MISMATCH" });
  });

  it("a BIP-322 witness signed by the attacker's own key cannot claim the victim's address", () => {
    // The attacker's witness is valid for the attacker's address; only the claimed address differs.
    const witness = bip322WitnessPublicKeyHash(attacker, victimP2wpkh, requested);
    expect(bitcoin(victimP2wpkh, base64.encode(encodeWitness(witness)))).toMatchObject({ code: "SIGNATURE_MISMATCH" });
  });

  it("a signature made for the victim's P2WPKH address cannot be presented for the victim's P2SH or Taproot address", () => {
    const signature = signBip322PublicKeyHash(victim, victimP2wpkh, requested);
    expect(bitcoin(p2shP2wpkhAddress(publicKeyOf(victim)), signature)).toMatchObject({ code: "SIGNATURE_MISMATCH" });
    expect(bitcoin(p2trAddress(taprootKeyPair(victim).outputKey), signature)).toMatchObject({ ok: false });
  });

  it("re-labelling a legacy signature with a segwit header does not move it to an address the key never hashed to", () => {
    // The attacker signs with their key and claims the victim's address under each header.
    for (const header of [27, 31, 35, 39]) {
      expect(bitcoin(victimP2wpkh, signLegacy(attacker, requested, header))).toMatchObject({ ok: false, code: "SIGNATURE_MISMATCH" });
    }
  });

  it("an uncompressed-key signature cannot prove control of a segwit address", () => {
    // Segwit outputs only ever commit to compressed keys; accepting header 27-30 there would let a
    // P2PKH proof of the uncompressed key stand in for an address that key can never spend.
    const signature = signLegacy(victim, requested, 27);
    expect(bitcoin(victimP2wpkh, signature)).toMatchObject({
      code: "SIGNATURE_MISMATCH",
      reason: expect.stringContaining("uncompressed"),
    });
  });

  it("a Taproot key-path signature from another key fails", () => {
    const victimTaproot = p2trAddress(taprootKeyPair(victim).outputKey);
    expect(bitcoin(victimTaproot, signBip322Taproot(attacker, requested))).toMatchObject({ code: "SIGNATURE_MISMATCH" });
  });

  it("a malleated (high-S) copy of a genuine BIP-322 signature is refused, so each proof has one accepted form", () => {
    const [signature, key] = bip322WitnessPublicKeyHash(victim, victimP2wpkh, requested);
    if (signature === undefined || key === undefined) throw new Error("two witness items");
    const parsed = parseStrictDerSignature(signature.subarray(0, -1));
    if (parsed === undefined) throw new Error("strict DER");
    const highS = new secp256k1.Signature(parsed.r, secp256k1.Point.Fn.neg(parsed.s)).toBytes("der");
    const witness = encodeWitness([concatBytes(highS, Uint8Array.of(0x01)), key]);
    expect(bitcoin(victimP2wpkh, base64.encode(witness))).toMatchObject({
      code: "MALFORMED_SIGNATURE",
      reason: expect.stringContaining("high S"),
    });
  });

  it("a non-strict DER re-encoding of a genuine signature is refused", () => {
    const [signature, key] = bip322WitnessPublicKeyHash(victim, victimP2wpkh, requested);
    if (signature === undefined || key === undefined) throw new Error("two witness items");
    const der = signature.subarray(0, -1);
    // Pad R with a superfluous zero byte: same number, different bytes.
    const rLength = der[3] ?? 0;
    const padded = concatBytes(Uint8Array.of(0x30, (der[1] ?? 0) + 1, 0x02, rLength + 1, 0x00), der.subarray(4), Uint8Array.of(0x01));
    expect(bitcoin(victimP2wpkh, base64.encode(encodeWitness([padded, key])))).toMatchObject({ code: "MALFORMED_SIGNATURE" });
  });

  it("a signature that commits to fewer outputs (SIGHASH_NONE, ANYONECANPAY) is refused", () => {
    const [signature, key] = bip322WitnessPublicKeyHash(victim, victimP2wpkh, requested);
    if (signature === undefined || key === undefined) throw new Error("two witness items");
    for (const type of [0x02, 0x03, 0x81]) {
      const witness = encodeWitness([concatBytes(signature.subarray(0, -1), Uint8Array.of(type)), key]);
      expect(bitcoin(victimP2wpkh, base64.encode(witness))).toMatchObject({ code: "MALFORMED_SIGNATURE" });
    }
  });

  it("trailing bytes after a genuine witness are refused, so the stored proof is exactly what verified", () => {
    const genuine = base64.decode(signBip322PublicKeyHash(victim, victimP2wpkh, requested));
    expect(bitcoin(victimP2wpkh, base64.encode(concatBytes(genuine, Uint8Array.of(0x00))))).toMatchObject({ ok: false });
  });

  it("a Taproot address written with a bech32 (not bech32m) checksum is refused", () => {
    // BIP-350's example of the v1 checksum confusion that BIP-173 decoders fell for.
    const confused = "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd";
    expect(verifyBitcoinMessage({ address: confused, message: requested, signature: "AA==" })).toMatchObject({ code: "INVALID_ADDRESS" });
  });

  it("an Ethereum address one letter off in case (failing EIP-55) is refused", () => {
    const result = verifyOwnershipSignature({
      assetFamily: "ethereum",
      address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD",
      message: requested,
      signature: "0x" + "11".repeat(65),
    });
    expect(result).toMatchObject({ code: "INVALID_ADDRESS" });
  });

  it("a huge signature is refused before it is decoded", () => {
    expect(bitcoin(victimP2wpkh, "A".repeat(10_000_000))).toMatchObject({
      code: "MALFORMED_SIGNATURE",
      reason: "The signature is too long.",
    });
  });

  it("attaching someone else's address to one's own xpub finds no derivation", () => {
    const zpub = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs";
    expect(findXpubDerivation({ xpub: zpub, address: victimP2wpkh, maxIndex: 50 })).toBeUndefined();
  });

  it("an extended private key pasted by mistake is refused and never echoed", () => {
    const xprv = "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi";
    // BIP-32 test vector 1, chain m.
    const result = parseExtendedPublicKey(xprv);
    expect(result).toMatchObject({ ok: false, code: "INVALID_EXTENDED_KEY", reason: expect.stringContaining("private key") });
    expect(JSON.stringify(result)).not.toMatch(/xprv9s21|3QTDL4LXw2F7/);
  });
});

import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { base64 } from "@scure/base";
import * as btc from "@scure/btc-signer";
import { describe, expect, it } from "vitest";
import { multisigVault, signBip322Script, taprootVault, vaultKeys } from "@compliance-graph/test-kit";
import { verifyBitcoinMessage } from "../../src/ownership/index.js";

/**
 * BIP-322 signatures for multisig vaults and Taproot script leaves, made by @scure/btc-signer (an
 * implementation other than ours, through the test kit's vault wallet): its scripts, `to_sign`,
 * signatures and finished witnesses go to aopd's verifier unchanged, or with one item taken out.
 */

const { secrets: keys, publicKeys, xOnlyKeys } = vaultKeys("msig vault", 3);
const message = "Proof request 7c1e: our vault controls this address.";
const witnessOf = (signature: string) => btc.RawWitness.decode(base64.decode(signature));
const encoded = (witness: Uint8Array[]) => base64.encode(btc.RawWitness.encode(witness));

describe("BIP-322 signatures over scripts, made by @scure/btc-signer", () => {
  // Keys in descending byte order: a `multi` script that is not also a `sortedmulti` one.
  const twoOfThree = multisigVault(2, btc._sortPubkeys([...publicKeys]).reverse());

  it("verifies a 2-of-3 P2WSH multi vault and names its signers", () => {
    const signature = signBip322Script(twoOfThree, message, [keys[0]!, keys[2]!]);
    expect(verifyBitcoinMessage({ address: twoOfThree.address!, message, signature })).toEqual({
      ok: true,
      scheme: "bip322-script",
      script: { template: "multi", threshold: 2, keyCount: 3, signers: expect.arrayContaining([bytesToHex(publicKeys[0]!), bytesToHex(publicKeys[2]!)]) },
    });
    expect(verifyBitcoinMessage({ address: twoOfThree.address!, message: message + ".", signature })).toMatchObject({ code: "SIGNATURE_MISMATCH" });
  });

  it("verifies a sortedmulti P2SH-P2WSH vault", () => {
    const vault = multisigVault(2, publicKeys, { sorted: true, nested: true });
    const signature = signBip322Script(vault, message, [keys[1]!, keys[2]!]);
    expect(vault.address!.startsWith("3")).toBe(true);
    expect(verifyBitcoinMessage({ address: vault.address!, message, signature })).toMatchObject({
      ok: true,
      scheme: "bip322-script",
      script: { template: "sortedmulti", threshold: 2, keyCount: 3 },
    });
  });

  it("refuses a 2-of-3 P2WSH witness with one signature missing or blanked", () => {
    const [dummy, first, , script] = witnessOf(signBip322Script(twoOfThree, message, [keys[0]!, keys[1]!]));
    expect(verifyBitcoinMessage({ address: twoOfThree.address!, message, signature: encoded([dummy!, first!, script!]) })).toMatchObject({
      code: "SIGNATURE_MISMATCH",
      reason: expect.stringContaining("needs exactly 2 signatures; the witness has 1"),
    });
    const blanked = encoded([dummy!, first!, new Uint8Array(0), script!]);
    expect(verifyBitcoinMessage({ address: twoOfThree.address!, message, signature: blanked })).toMatchObject({ code: "SIGNATURE_MISMATCH" });
  });

  it("refuses a witness script that is not the address's, and a script that is not multisig", () => {
    const signature = signBip322Script(multisigVault(1, publicKeys), message, [keys[0]!]);
    expect(verifyBitcoinMessage({ address: twoOfThree.address!, message, signature })).toMatchObject({
      code: "SIGNATURE_MISMATCH",
      reason: expect.stringContaining("witness script"),
    });
    const hashLock = btc.Script.encode(["HASH160", new Uint8Array(20), "EQUAL"]);
    const address = btc.Address(btc.NETWORK).encode({ type: "wsh", hash: sha256(hashLock) });
    expect(verifyBitcoinMessage({ address, message, signature: encoded([new Uint8Array(0), hashLock]) })).toMatchObject({
      code: "UNSUPPORTED_SIGNATURE",
      reason: expect.stringContaining("multi or sortedmulti"),
    });
  });

  describe("Taproot script path", () => {
    const vault = taprootVault([{ multiA: { threshold: 2, xOnlyKeys } }, { key: xOnlyKeys[2]! }]);

    it("verifies a 2-of-3 multi_a leaf and names its signers", () => {
      const signature = signBip322Script(vault, message, [keys[0]!, keys[1]!]);
      const result = verifyBitcoinMessage({ address: vault.address!, message, signature });
      expect(result).toMatchObject({ ok: true, scheme: "bip322-script", script: { template: "multi_a", threshold: 2, keyCount: 3 } });
      if (!result.ok || !result.script) throw new Error("expected a script spend");
      expect([...result.script.signers].sort()).toEqual([bytesToHex(xOnlyKeys[0]!), bytesToHex(xOnlyKeys[1]!)].sort());
      expect(verifyBitcoinMessage({ address: vault.address!, message: "", signature })).toMatchObject({ code: "SIGNATURE_MISMATCH" });
    });

    it("refuses the multi_a leaf when the threshold is not met", () => {
      const witness = witnessOf(signBip322Script(vault, message, [keys[0]!, keys[1]!]));
      expect(btc.Script.decode(witness.at(-2)!).at(-1)).toBe("NUMEQUAL");
      // Blank one of the two signatures: 1 of the 2 required remains.
      const signed = witness.findIndex((item) => item.length === 64 || item.length === 65);
      const weakened = witness.map((item, i) => (i === signed ? new Uint8Array(0) : item));
      expect(verifyBitcoinMessage({ address: vault.address!, message, signature: encoded(weakened) })).toMatchObject({
        code: "SIGNATURE_MISMATCH",
        reason: expect.stringContaining("needs 2 signatures; the witness has 1"),
      });
    });

    it("verifies a single-key leaf, and refuses a leaf that is not in the address's tree", () => {
      const single = taprootVault([{ key: xOnlyKeys[2]! }, { key: xOnlyKeys[0]! }]);
      const signature = signBip322Script(single, message, [keys[2]!]);
      expect(verifyBitcoinMessage({ address: single.address!, message, signature })).toEqual({
        ok: true,
        scheme: "bip322-script",
        script: { template: "pk", threshold: 1, keyCount: 1, signers: [bytesToHex(xOnlyKeys[2]!)] },
      });
      expect(verifyBitcoinMessage({ address: vault.address!, message, signature })).toMatchObject({
        code: "SIGNATURE_MISMATCH",
        reason: expect.stringContaining("control block"),
      });
    });
  });
});

import { bytesToHex } from "@noble/hashes/utils.js";
import { base64 } from "@scure/base";
import * as btc from "@scure/btc-signer";
import { describe, expect, it } from "vitest";
import { multisigVault, signPsbtAsCoordinator, taprootVault, vaultKeys, type VaultPayment } from "@compliance-graph/test-kit";
import { parseBitcoinAddress, proofPsbt, verifyBitcoinMessage } from "../../src/ownership/index.js";

/**
 * Proofs of control by PSBT: aopd offers the PSBT, each vault key signs it with @scure/btc-signer
 * the way a coordinator passes it from signer to signer (the coordinator adds the script it keeps),
 * and aopd checks the returned PSBT, finalized or not.
 */

const { secrets: keys, publicKeys, xOnlyKeys } = vaultKeys("psbt vault", 3);
const message = "I confirm that I control this vault for CUST-9. Nonce: 5f0c2a7d9e31b4c6a8f0e2d1";
const psbtOptions = { allowUnknownOutputs: true, allowUnknownVersion: true };

function offeredPsbt(vault: Pick<VaultPayment, "address">, text = message): Uint8Array {
  const address = parseBitcoinAddress(vault.address!);
  if (!address.ok) throw new Error(address.reason);
  return proofPsbt(address, text);
}

function signed(vault: VaultPayment, signers: readonly Uint8Array[], options: { finalize?: boolean; text?: string } = {}): string {
  return signPsbtAsCoordinator(vault, base64.encode(offeredPsbt(vault, options.text)), signers, options);
}

describe("proof of control by PSBT", () => {
  const vault = multisigVault(2, publicKeys, { sorted: true });

  it("offers a PSBT whose one input spends BIP-322's to_spend, which can never be mined", () => {
    const transaction = btc.Transaction.fromPSBT(offeredPsbt(vault), psbtOptions);
    expect(transaction.inputsLength).toBe(1);
    expect(transaction.outputsLength).toBe(1);
    expect(transaction.getOutput(0)).toMatchObject({ amount: 0n, script: Uint8Array.of(0x6a) });
    expect(transaction.getInput(0).witnessUtxo).toEqual({ script: vault.script, amount: 0n });
    // Another message is another spent output: the PSBT commits to the message.
    expect(bytesToHex(btc.Transaction.fromPSBT(offeredPsbt(vault, "other"), psbtOptions).getInput(0).txid!)).not.toBe(
      bytesToHex(transaction.getInput(0).txid!),
    );
  });

  it.each([false, true])("verifies a 2-of-3 P2WSH vault's PSBT (finalized: %s) and names its signers", (finalize) => {
    const signature = signed(vault, [keys[0]!, keys[2]!], { finalize });
    expect(verifyBitcoinMessage({ address: vault.address!, message, signature })).toEqual({
      ok: true,
      scheme: "psbt",
      script: { template: "sortedmulti", threshold: 2, keyCount: 3, signers: expect.arrayContaining([bytesToHex(publicKeys[0]!), bytesToHex(publicKeys[2]!)]) },
    });
  });

  it("checks every signature when all three keys signed", () => {
    const result = verifyBitcoinMessage({ address: vault.address!, message, signature: signed(vault, keys) });
    expect(result).toMatchObject({ ok: true, scheme: "psbt" });
    if (!result.ok || !result.script) throw new Error("expected a script spend");
    expect([...result.script.signers].sort()).toEqual(publicKeys.map((key) => bytesToHex(key)).sort());
  });

  it("verifies a nested (P2SH-P2WSH) vault and a Taproot multi_a vault", () => {
    const nested = multisigVault(2, publicKeys, { nested: true });
    expect(verifyBitcoinMessage({ address: nested.address!, message, signature: signed(nested, [keys[1]!, keys[2]!]) })).toMatchObject({
      ok: true,
      scheme: "psbt",
      script: { template: "multi" },
    });
    const taproot = taprootVault([{ multiA: { threshold: 2, xOnlyKeys } }]);
    const result = verifyBitcoinMessage({ address: taproot.address!, message, signature: signed(taproot, [keys[0]!, keys[1]!]) });
    expect(result).toMatchObject({ ok: true, scheme: "psbt", script: { template: "multi_a", threshold: 2, keyCount: 3 } });
  });

  it.each([false, true])("names the key of a single-key PSBT (finalized: %s), as its BIP-322 signature would, and none for a Taproot key path", (finalize) => {
    const [key] = keys;
    const publicKey = publicKeys[0]!;
    for (const wallet of [btc.p2wpkh(publicKey), btc.p2sh(btc.p2wpkh(publicKey))]) {
      const signature = signPsbtAsCoordinator(wallet, base64.encode(offeredPsbt(wallet)), [key!], { finalize });
      expect(verifyBitcoinMessage({ address: wallet.address!, message, signature })).toEqual({ ok: true, scheme: "psbt", signerKey: publicKey });
    }
    const taproot = btc.p2tr(xOnlyKeys[0]!);
    const signature = signPsbtAsCoordinator(taproot, base64.encode(offeredPsbt(taproot)), [key!], { finalize });
    expect(verifyBitcoinMessage({ address: taproot.address!, message, signature })).toEqual({ ok: true, scheme: "psbt" });
  });

  it("refuses a PSBT below the threshold, for another message, or with a changed transaction", () => {
    expect(verifyBitcoinMessage({ address: vault.address!, message, signature: signed(vault, [keys[1]!]) })).toMatchObject({
      code: "SIGNATURE_MISMATCH",
      reason: expect.stringContaining("needs exactly 2 signatures; the witness has 1"),
    });
    const taproot = taprootVault([{ multiA: { threshold: 2, xOnlyKeys } }]);
    expect(verifyBitcoinMessage({ address: taproot.address!, message, signature: signed(taproot, [keys[2]!]) })).toMatchObject({
      code: "SIGNATURE_MISMATCH",
      reason: expect.stringContaining("needs 2 signatures; the witness has 1"),
    });
    expect(verifyBitcoinMessage({ address: vault.address!, message, signature: signed(vault, [keys[0]!, keys[1]!], { text: "another proof" }) })).toMatchObject(
      {
        code: "SIGNATURE_MISMATCH",
        reason: expect.stringContaining("not this proof's"),
      },
    );
    // A real payment slipped in beside the proof's output is refused before any signature is read.
    const changed = btc.Transaction.fromPSBT(offeredPsbt(vault), psbtOptions);
    changed.addOutputAddress(vault.address!, 1000n);
    expect(verifyBitcoinMessage({ address: vault.address!, message, signature: base64.encode(changed.toPSBT()) })).toMatchObject({
      code: "SIGNATURE_MISMATCH",
    });
    expect(verifyBitcoinMessage({ address: vault.address!, message, signature: "cHNidP8BAA==" })).toMatchObject({ code: "MALFORMED_SIGNATURE" });
    expect(verifyBitcoinMessage({ address: vault.address!, message, signature: base64.encode(offeredPsbt(vault)) })).toMatchObject({
      code: "SIGNATURE_MISMATCH",
      reason: expect.stringContaining("no usable signature"),
    });
  });
});

import { schnorr, secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { base64 } from "@scure/base";
import * as btc from "@scure/btc-signer";

/**
 * A multisig vault's wallet for tests and benchmarks, built on @scure/btc-signer so that what aopd
 * verifies was made by an implementation other than its own: the vault's scripts, BIP-322's
 * `to_spend` and `to_sign`, the signatures and the finished witness are all the library's. Only
 * BIP-322's message hash (a tagged SHA-256) is written here.
 */

/** A payment as btc-signer describes it: its output script, address and spending data. */
export type VaultPayment = ReturnType<typeof btc.p2wsh> | ReturnType<typeof btc.p2sh> | ReturnType<typeof btc.p2tr>;

/** `count` secret keys of a vault, derived from `label`. */
export function vaultKeys(label: string, count: number): { secrets: Uint8Array[]; publicKeys: Uint8Array[]; xOnlyKeys: Uint8Array[] } {
  const secrets = Array.from({ length: count }, (_, i) => sha256(utf8ToBytes(`${label} key ${i + 1}`)));
  return { secrets, publicKeys: secrets.map((key) => secp256k1.getPublicKey(key, true)), xOnlyKeys: secrets.map((key) => schnorr.getPublicKey(key)) };
}

/** A k-of-n `multi` (or `sortedmulti`) vault behind a P2WSH address, or P2SH-P2WSH when `nested`. */
export function multisigVault(threshold: number, publicKeys: readonly Uint8Array[], options: { sorted?: boolean; nested?: boolean } = {}): VaultPayment {
  const keys = options.sorted ? btc._sortPubkeys([...publicKeys]) : [...publicKeys];
  const witnessScript = btc.p2wsh(btc.p2ms(threshold, keys));
  return options.nested ? btc.p2sh(witnessScript) : witnessScript;
}

/** A Taproot vault with an unspendable internal key and the given leaves (multi_a or single key). */
export function taprootVault(leaves: readonly ({ multiA: { threshold: number; xOnlyKeys: readonly Uint8Array[] } } | { key: Uint8Array })[]): VaultPayment {
  const tree = leaves.map((leaf) => ({
    script: "key" in leaf ? btc.p2tr_pk(leaf.key).script : btc.p2tr_ms(leaf.multiA.threshold, [...leaf.multiA.xOnlyKeys]).script,
  }));
  return btc.p2tr(btc.TAPROOT_UNSPENDABLE_KEY, tree, undefined, true);
}

function bip322MessageHash(message: string): Uint8Array {
  const tag = sha256(utf8ToBytes("BIP0322-signed-message"));
  return sha256(concatBytes(tag, tag, utf8ToBytes(message)));
}

/** BIP-322's unsigned `to_sign` for `payment` and `message`, with what a signer needs to sign input 0. */
export function bip322ToSignTransaction(payment: VaultPayment, message: string): btc.Transaction {
  const toSpend = new btc.Transaction({ version: 0, allowUnknownInputs: true, allowUnknownOutputs: true, allowUnknownVersion: true, disableScriptCheck: true });
  toSpend.addOutput({ script: payment.script, amount: 0n });
  toSpend.addInput({
    txid: new Uint8Array(32),
    index: 0xffffffff,
    sequence: 0,
    finalScriptSig: concatBytes(Uint8Array.of(0x00, 0x20), bip322MessageHash(message)),
  });
  const toSign = new btc.Transaction({ version: 0, allowUnknownOutputs: true, allowUnknownVersion: true });
  toSign.addInput({ txid: toSpend.id, index: 0, sequence: 0, witnessUtxo: { script: payment.script, amount: 0n }, ...payment });
  toSign.addOutput({ script: Uint8Array.of(0x6a), amount: 0n });
  return toSign;
}

/** A BIP-322 simple signature (base64 witness) of `payment` over `message` by `signers`, finalised by btc-signer. */
export function signBip322Script(payment: VaultPayment, message: string, signers: readonly Uint8Array[]): string {
  const toSign = bip322ToSignTransaction(payment, message);
  for (const key of signers) toSign.signIdx(key, 0);
  toSign.finalizeIdx(0);
  return base64.encode(btc.RawWitness.encode(toSign.getInput(0).finalScriptWitness!));
}

const psbtOptions = { allowUnknownOutputs: true, allowUnknownVersion: true };

/**
 * What a vault's coordinator does with an offered PSBT (base64): add the spending data it keeps
 * (witness script, Taproot leaves), pass the PSBT to each signer in turn, and finalize it if asked.
 * A single-key wallet (`btc.p2wpkh(key)`, `btc.p2sh(btc.p2wpkh(key))` with its redeem script,
 * `btc.p2tr(key)`) does the same with its one key as the only signer.
 */
export function signPsbtAsCoordinator(
  vault: { script: Uint8Array },
  psbt: string,
  signers: readonly Uint8Array[],
  options: { finalize?: boolean } = {},
): string {
  const transaction = btc.Transaction.fromPSBT(base64.decode(psbt), psbtOptions);
  const spending = vault as Partial<ReturnType<btc.Transaction["getInput"]>>;
  const { witnessScript, redeemScript, tapLeafScript, tapInternalKey, tapMerkleRoot } = spending;
  transaction.updateInput(0, { witnessScript, redeemScript, tapLeafScript, tapInternalKey, tapMerkleRoot });
  let bytes = transaction.toPSBT();
  for (const key of signers) {
    const signer = btc.Transaction.fromPSBT(bytes, psbtOptions);
    signer.signIdx(key, 0);
    bytes = signer.toPSBT();
  }
  if (options.finalize) {
    const final = btc.Transaction.fromPSBT(bytes, psbtOptions);
    final.finalizeIdx(0);
    bytes = final.toPSBT();
  }
  return base64.encode(bytes);
}

import { equalBytes } from "@noble/curves/utils.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import * as btc from "@scure/btc-signer";
import { parseTapscript, parseWitnessMultisig } from "./bitcoin-script-templates.js";
import { bip322ToSign, bip322ToSpend } from "./bip322-virtual-transactions.js";
import { ownershipFailure, type OwnershipFailure } from "./ownership-failure.js";
import type { BitcoinAddress } from "./parse-bitcoin-address.js";
import { tapLeafHash } from "./taproot-script-commitment.js";
import type { ScriptSpend } from "./verify-bip322-script.js";
import { verifyBip322Simple } from "./verify-bip322-simple.js";

/**
 * A proof of control by PSBT (BIP-127 style) for wallets that sign transactions but not messages.
 * The PSBT the portal offers (`proofPsbt`) is BIP-322's `to_sign` for the proof's address and
 * message: its only input spends output 0 of `to_spend`, whose own input (000…000:0xFFFFFFFF with
 * the message's hash) can never be valid on chain, so neither transaction can ever be mined, and
 * every signature over it commits to the message and the address script.
 *
 * The PSBT is read with @scure/btc-signer (a parser only); what it must hold is checked here: its
 * unsigned transaction must be exactly that `to_sign`, byte for byte. Its signatures (a finalized
 * witness, or the partial signatures of a coordinator that has not finalized) are then put into
 * the witness BIP-322 prescribes and verified by the same checker as a BIP-322 signature, so a
 * PSBT proves no more and no less than the equivalent message signature. Signatures beyond a
 * script's threshold are each checked too, in further witnesses of exactly the threshold.
 *
 * A wallet that completes the signatures often hands back the finished transaction instead of the
 * PSBT (Electrum does, once the last cosigner signed): that transaction is accepted too, on the
 * same terms (`verifySignedProofTransaction`).
 */

/** A PSBT's magic, "psbt" and 0xFF (BIP-174), as base64 text begins. */
export const psbtBase64Prefix = "cHNidP8";

/** The unsigned PSBT for a proof: `to_sign` with the spent output (the address's script, 0 sats). */
export function proofPsbt(address: BitcoinAddress, message: string): Uint8Array {
  const toSpend = bip322ToSpend(address.scriptPubKey, message);
  const toSign = btc.Transaction.fromRaw(bip322ToSign(toSpend.txid).serialized, { allowUnknownOutputs: true, allowUnknownVersion: true });
  toSign.updateInput(0, { witnessUtxo: { script: address.scriptPubKey, amount: 0n } });
  return toSign.toPSBT(0);
}

export function verifyPsbtProof(address: BitcoinAddress, message: string, psbt: Uint8Array): PsbtVerification {
  let transaction: btc.Transaction;
  try {
    transaction = btc.Transaction.fromPSBT(psbt, { allowUnknownOutputs: true, allowUnknownVersion: true, allowUnknownInputs: true, disableScriptCheck: true });
  } catch {
    return ownershipFailure("MALFORMED_SIGNATURE", "The PSBT cannot be read (BIP-174).");
  }
  if (!isProofTransaction(address, message, transaction)) return notThisProof();
  const witnesses = witnessesOf(address, transaction.getInput(0));
  if (!Array.isArray(witnesses)) return witnesses;
  return verifyWitnesses(address, message, witnesses);
}

/** The proof's PSBT as a finished transaction (consensus serialisation, with its witness). */
export function verifySignedProofTransaction(address: BitcoinAddress, message: string, raw: Uint8Array): PsbtVerification {
  let transaction: btc.Transaction;
  try {
    transaction = btc.Transaction.fromRaw(raw, { allowUnknownOutputs: true, allowUnknownVersion: true, allowUnknownInputs: true, disableScriptCheck: true });
  } catch {
    return ownershipFailure("MALFORMED_SIGNATURE", "The signed transaction cannot be read.");
  }
  if (!isProofTransaction(address, message, transaction)) return notThisProof();
  const witness = transaction.getInput(0).finalScriptWitness;
  if (!witness || witness.length === 0) return ownershipFailure("MALFORMED_SIGNATURE", "The transaction carries no witness: submit the signed PSBT instead.");
  return verifyWitnesses(address, message, [witness]);
}

/** Whether the unsigned transaction is exactly BIP-322's `to_sign` for this address and message. */
function isProofTransaction(address: BitcoinAddress, message: string, transaction: btc.Transaction): boolean {
  return equalBytes(transaction.unsignedTx, bip322ToSign(bip322ToSpend(address.scriptPubKey, message).txid).serialized);
}

function notThisProof(): OwnershipFailure {
  return ownershipFailure(
    "SIGNATURE_MISMATCH",
    "The PSBT is not this proof's: sign the PSBT offered for this proof (its one input commits to this address and message) without changing its inputs or outputs.",
  );
}

/**
 * What the PSBT's signatures prove: a script's spend and its signers, or, for a single key's
 * (P2WPKH, P2SH-P2WPKH) witness, the key, as its BIP-322 signature would reveal it, so that the
 * key's sibling addresses are screened alike (`keyAddressesOf`).
 */
export type PsbtVerification = { ok: true; script?: ScriptSpend; signerKey?: Uint8Array } | OwnershipFailure;

function verifyWitnesses(address: BitcoinAddress, message: string, witnesses: readonly Uint8Array[][]): PsbtVerification {
  const signers = new Set<string>();
  let script: ScriptSpend | undefined;
  let signerKey: Uint8Array | undefined;
  for (const witness of witnesses) {
    const result = verifyBip322Simple(address, message, witness);
    if (!result.ok) return result;
    if (result.script) {
      script = result.script;
      for (const signer of result.script.signers) signers.add(signer);
    }
    signerKey = result.signerKey;
  }
  if (script) return { ok: true, script: { ...script, signers: [...signers] } };
  // A single key's PSBT has exactly one witness: [signature, key].
  return signerKey ? { ok: true, signerKey } : { ok: true };
}

type PsbtInput = ReturnType<btc.Transaction["getInput"]>;

/** The witnesses to verify: the finalized one, or those built from the partial signatures. */
function witnessesOf(address: BitcoinAddress, input: PsbtInput): Uint8Array[][] | OwnershipFailure {
  if (input.finalScriptWitness && input.finalScriptWitness.length > 0) return [input.finalScriptWitness];
  if (input.witnessScript) return multisigWitnesses(input.witnessScript, input.partialSig ?? []);
  if (input.tapKeySig) return [[input.tapKeySig]];
  if (input.tapScriptSig && input.tapScriptSig.length > 0) return tapscriptWitnesses(input);
  const [single, ...more] = input.partialSig ?? [];
  if (single && more.length === 0 && (address.format === "P2WPKH" || address.format === "P2SH")) return [[single[1], single[0]]];
  return ownershipFailure(
    "SIGNATURE_MISMATCH",
    "The PSBT carries no usable signature for its input: sign it with the wallet that holds this address (a multisig vault's coordinator keeps the witness script in the PSBT).",
  );
}

function multisigWitnesses(witnessScript: Uint8Array, partialSigs: readonly (readonly [Uint8Array, Uint8Array])[]): Uint8Array[][] | OwnershipFailure {
  const multisig = parseWitnessMultisig(witnessScript);
  // Not a multisig template: one witness with the script, for the checker to name what it refuses.
  if (!multisig) return [[new Uint8Array(0), witnessScript]];
  const byKey = new Map(partialSigs.map(([key, signature]) => [bytesToHex(key), signature]));
  const inOrder = multisig.publicKeys.flatMap((key) => byKey.get(bytesToHex(key)) ?? []);
  if (inOrder.length !== byKey.size) {
    return ownershipFailure("SIGNATURE_MISMATCH", "The PSBT carries a signature by a key that is not in the vault's script.");
  }
  return windows(inOrder, multisig.threshold).map((signatures) => [new Uint8Array(0), ...signatures, witnessScript]);
}

function tapscriptWitnesses(input: PsbtInput): Uint8Array[][] | OwnershipFailure {
  const signatures = input.tapScriptSig ?? [];
  const leafHashes = new Set(signatures.map(([{ leafHash }]) => bytesToHex(leafHash)));
  if (leafHashes.size !== 1) return ownershipFailure("UNSUPPORTED_SIGNATURE", "The PSBT signs more than one Taproot leaf; sign one leaf.");
  const [leafHashHex] = leafHashes;
  const leaf = (input.tapLeafScript ?? []).find(([, scriptWithVersion]) => {
    const script = scriptWithVersion.subarray(0, -1);
    return bytesToHex(tapLeafHash(script, scriptWithVersion.at(-1)!)) === leafHashHex;
  });
  if (!leaf) return ownershipFailure("MALFORMED_SIGNATURE", "The PSBT signs a Taproot leaf whose script and control block it does not carry.");
  const [controlBlock, scriptWithVersion] = leaf;
  const script = scriptWithVersion.subarray(0, -1);
  const control = btc.TaprootControlBlock.encode(controlBlock);
  const template = parseTapscript(script);
  // Not a supported leaf: one witness with the script, for the checker to name what it refuses.
  if (!template) return [[script, control]];
  const byKey = new Map(signatures.map(([{ pubKey }, signature]) => [bytesToHex(pubKey), signature]));
  const signedKeys = template.publicKeys.filter((key) => byKey.has(bytesToHex(key)));
  if (signedKeys.length !== byKey.size) {
    return ownershipFailure("SIGNATURE_MISMATCH", "The PSBT carries a signature by a key that is not in the signed leaf.");
  }
  // The stack holds one item per key, the first key's on top (last in the witness).
  return windows(signedKeys, template.threshold).map((keys) => {
    const chosen = new Set(keys.map((key) => bytesToHex(key)));
    const stack = template.publicKeys.map((key) => (chosen.has(bytesToHex(key)) ? byKey.get(bytesToHex(key))! : new Uint8Array(0))).reverse();
    return [...stack, script, control];
  });
}

/**
 * Groups of exactly `size` items that together cover all of them (the first `size`, the next, …,
 * the last group moved back to end at the end); all of them when there are fewer, so the checker
 * names the threshold that was not met.
 */
function windows<T>(items: readonly T[], size: number): T[][] {
  if (items.length <= size) return [[...items]];
  const groups: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    const from = Math.min(start, items.length - size);
    groups.push(items.slice(from, from + size));
  }
  return groups;
}

import { schnorr } from "@noble/curves/secp256k1.js";
import { equalBytes } from "@noble/curves/utils.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { hash160 } from "./bitcoin-hashes.js";
import { parseTapscript, parseWitnessMultisig } from "./bitcoin-script-templates.js";
import { segwitV0Sighash, tapscriptSighash } from "./bip322-sighash.js";
import { bip322ToSpend } from "./bip322-virtual-transactions.js";
import { ownershipFailure, signatureMismatch, type OwnershipFailure } from "./ownership-failure.js";
import type { BitcoinAddress } from "./parse-bitcoin-address.js";
import { controlBlockCommitsTo, tapLeafHash, tapscriptLeafVersion } from "./taproot-script-commitment.js";
import { verifySegwitEcdsaSignature } from "./verify-segwit-ecdsa-signature.js";

/**
 * BIP-322 signatures that spend a script rather than a single key: a vault's `multi` or
 * `sortedmulti` script behind a P2WSH or P2SH-P2WSH address, or a Taproot script-path leaf that is
 * a single key or `multi_a`. The script is matched against exactly those templates
 * (`bitcoin-script-templates.ts`) and its signatures are checked the way consensus would run it:
 * BIP-143 sighash with the witness script as script code, or BIP-342 with the leaf's hash; ECDSA
 * and Schnorr verification are @noble/curves'. Every signature present must be valid (NULLFAIL)
 * and exactly the threshold must be met; anything else is refused with what was wrong.
 */

// A type rather than an interface so that it is a plain record where one is expected (audit details).
export type ScriptSpend = {
  readonly template: "multi" | "sortedmulti" | "pk" | "multi_a";
  readonly threshold: number;
  readonly keyCount: number;
  /** The keys whose signatures were verified, hex (33-byte compressed, or 32-byte x-only in Taproot). */
  readonly signers: readonly string[];
};

export type ScriptSpendVerification = { readonly ok: true; readonly script: ScriptSpend } | OwnershipFailure;

/** Most keys a script here may hold (BIP-387 allows 999 for multi_a; more is refused, not slowed on). */
export const maxScriptKeys = 20;

/** Witness v0: [empty dummy, signature × k, witness script], for P2WSH or P2SH-P2WSH. */
export function verifyWitnessScriptSpend(address: BitcoinAddress, message: string, witness: readonly Uint8Array[]): ScriptSpendVerification {
  const witnessScript = witness.at(-1);
  if (witnessScript === undefined || witness.length < 2) {
    return malformed("A BIP-322 signature for a script address ends with the witness script.");
  }
  const scriptHash = sha256(witnessScript);
  const committed = address.format === "P2SH" ? hash160(Uint8Array.of(0x00, 0x20, ...scriptHash)) : scriptHash;
  if (!equalBytes(committed, address.program)) {
    return ownershipFailure("SIGNATURE_MISMATCH", "The witness script in the signature does not belong to this address.");
  }
  const multisig = parseWitnessMultisig(witnessScript);
  if (multisig === undefined) {
    return unsupported(
      "This address's script is not a multi or sortedmulti multisig script (OP_k <keys> OP_n OP_CHECKMULTISIG with compressed keys, at most 16); no other script is verified.",
    );
  }
  const [dummy, ...signatures] = witness.slice(0, -1);
  if (dummy === undefined || dummy.length !== 0) {
    return malformed("A multisig witness starts with an empty item (the OP_CHECKMULTISIG dummy).");
  }
  const { threshold, publicKeys } = multisig;
  if (signatures.length !== threshold) {
    return thresholdNotMet(
      `The ${threshold}-of-${publicKeys.length} multisig script needs exactly ${threshold} signatures; the witness has ${signatures.length}.`,
    );
  }
  const sighash = segwitV0Sighash(bip322ToSpend(address.scriptPubKey, message).txid, witnessScript);
  // OP_CHECKMULTISIG pairs signatures with keys in script order; a key that does not match the
  // current signature is skipped for good. Every signature must find its key.
  const signers: string[] = [];
  let keyIndex = 0;
  for (const signature of signatures) {
    if (signature.length === 0) {
      return thresholdNotMet(`The ${threshold}-of-${publicKeys.length} multisig script needs ${threshold} signatures; one of them is empty.`);
    }
    let matched = false;
    while (!matched && keyIndex < publicKeys.length) {
      const key = publicKeys[keyIndex++]!;
      const result = verifySegwitEcdsaSignature(signature, key, sighash);
      if (!result.ok) return result;
      if (result.valid) {
        matched = true;
        signers.push(bytesToHex(key));
      }
    }
    if (!matched) return signatureMismatch();
  }
  return { ok: true, script: { template: multisig.template, threshold, keyCount: publicKeys.length, signers } };
}

/** Taproot script path: [stack items…, leaf script, control block], no annex. */
export function verifyTapscriptSpend(address: BitcoinAddress, message: string, witness: readonly Uint8Array[]): ScriptSpendVerification {
  if (witness.length >= 2 && witness.at(-1)![0] === 0x50) {
    return unsupported("Taproot signatures with an annex are not supported.");
  }
  const controlBlock = witness.at(-1)!;
  const script = witness.at(-2)!;
  const stack = witness.slice(0, -2);
  if (controlBlock.length < 33 || controlBlock.length > 33 + 32 * 128 || (controlBlock.length - 33) % 32 !== 0) {
    return malformed("The Taproot control block must be 33 bytes plus 32 for each level of the script tree.");
  }
  if ((controlBlock[0]! & 0xfe) !== tapscriptLeafVersion) {
    return unsupported("Only tapscript leaves (leaf version 0xc0) are supported in Taproot script-path signatures.");
  }
  const leafHash = tapLeafHash(script);
  if (!controlBlockCommitsTo(controlBlock, leafHash, address.program)) {
    return ownershipFailure("SIGNATURE_MISMATCH", "The script and control block in the signature do not belong to this address.");
  }
  const leaf = parseTapscript(script);
  if (leaf === undefined) {
    return unsupported("This Taproot leaf is neither a single key (<key> OP_CHECKSIG) nor a multi_a script; no other leaf is verified.");
  }
  const { threshold, publicKeys } = leaf;
  if (publicKeys.length > maxScriptKeys) return unsupported(`Scripts with more than ${maxScriptKeys} keys are not supported.`);
  // The first key's OP_CHECKSIG takes the top stack item, which is the witness's last one.
  if (stack.length !== publicKeys.length) {
    return malformed(
      `The ${leaf.template} leaf has ${publicKeys.length} keys and takes one stack item (a signature, or empty) for each; the witness has ${stack.length}.`,
    );
  }
  const toSpendTxid = bip322ToSpend(address.scriptPubKey, message).txid;
  const signers: string[] = [];
  for (let i = 0; i < publicKeys.length; i += 1) {
    const signature = stack[stack.length - 1 - i]!;
    if (signature.length === 0) continue;
    let hashType: 0x00 | 0x01;
    if (signature.length === 64) hashType = 0x00;
    else if (signature.length === 65 && signature[64] === 0x01) hashType = 0x01;
    else return malformed("BIP-322 Taproot signatures are 64 bytes (SIGHASH_DEFAULT) or 65 ending in 0x01 (SIGHASH_ALL).");
    const sighash = tapscriptSighash(toSpendTxid, address.scriptPubKey, hashType, leafHash);
    let valid: boolean;
    try {
      valid = schnorr.verify(signature.subarray(0, 64), sighash, publicKeys[i]!);
    } catch {
      valid = false;
    }
    // A non-empty signature that fails makes the script fail (BIP-342), whatever the others say.
    if (!valid) return signatureMismatch();
    signers.push(bytesToHex(publicKeys[i]!));
  }
  if (signers.length !== threshold) {
    return thresholdNotMet(
      signers.length < threshold
        ? `The ${leaf.template} leaf needs ${threshold} signatures; the witness has ${signers.length}.`
        : `The ${leaf.template} leaf needs exactly ${threshold} signatures (OP_NUMEQUAL); the witness has ${signers.length}.`,
    );
  }
  return { ok: true, script: { template: leaf.template, threshold, keyCount: publicKeys.length, signers } };
}

function thresholdNotMet(reason: string): OwnershipFailure {
  return ownershipFailure("SIGNATURE_MISMATCH", reason);
}

function unsupported(reason: string): OwnershipFailure {
  return ownershipFailure("UNSUPPORTED_SIGNATURE", reason);
}

function malformed(reason: string): OwnershipFailure {
  return ownershipFailure("MALFORMED_SIGNATURE", reason);
}

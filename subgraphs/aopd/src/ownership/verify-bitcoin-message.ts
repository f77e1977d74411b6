import { hexToBytes } from "@noble/hashes/utils.js";
import { base64 } from "@scure/base";
import { decodeWitnessStack } from "./decode-witness-stack.js";
import { ownershipFailure, type OwnershipFailure } from "./ownership-failure.js";
import { parseBitcoinAddress, type BitcoinAddress } from "./parse-bitcoin-address.js";
import type { ScriptSpend } from "./verify-bip322-script.js";
import { verifyBip322Simple } from "./verify-bip322-simple.js";
import { verifyLegacyBitcoinMessage } from "./verify-legacy-bitcoin-message.js";
import { psbtBase64Prefix, verifyPsbtProof, verifySignedProofTransaction, type PsbtVerification } from "./verify-psbt-proof.js";

/**
 * Checks that whoever holds the key behind a Bitcoin address signed the exact message the proof
 * request showed them. The signature format decides the scheme: 65 bytes is a legacy message
 * signature (Bitcoin Core, Electrum, BIP-137), anything else must be a BIP-322 simple signature,
 * with or without the "smp" type prefix of the revised BIP-322, and a base64 PSBT (which starts
 * with its magic) is a proof by PSBT. No scheme is tried "just in case" after a failure: each
 * signature has exactly one meaning.
 */

/**
 * `bip322-script`: a BIP-322 simple signature that spends a multisig script or a Taproot leaf;
 * `psbt`: the proof's PSBT signed by the wallet (`verify-psbt-proof.ts`).
 */
export type BitcoinSignatureScheme = "legacy" | "bip322-simple" | "bip322-script" | "psbt";

export type BitcoinMessageVerification =
  { readonly ok: true; readonly scheme: BitcoinSignatureScheme; readonly script?: ScriptSpend; readonly signerKey?: Uint8Array } | OwnershipFailure;

/**
 * Longest signature text accepted, in characters. A simple P2WPKH signature is about 144 and a
 * legacy one 88; the bound keeps a hostile submission from costing more than a few microseconds.
 * @default 4_096
 */
export const maxBitcoinSignatureLength = 4_096;

/**
 * Longest PSBT text accepted, in characters. A coordinator's PSBT for a 3-of-5 vault with key
 * origins and global xpubs is under 4 KB; the bound leaves room, caps the parsing work and fits the
 * portal's submission body (`maxSignatureBodyBytes`, 16 KiB).
 * @default 12_288
 */
export const maxPsbtLength = 12_288;

export function verifyBitcoinMessage(input: { address: string; message: string; signature: string }): BitcoinMessageVerification {
  const address = parseBitcoinAddress(input.address);
  if (!address.ok) return address;
  const text = typeof input.signature === "string" ? input.signature.trim() : "";
  if (text.startsWith(psbtBase64Prefix)) return verifyPsbt(address, input.message, text);
  if (signedProofTransaction.test(text)) return verifySignedTransaction(address, input.message, text);
  const decoded = decodeBitcoinSignature(input.signature);
  if (!("bytes" in decoded)) return decoded;
  const { bytes: signature, simplePrefix } = decoded;

  // A legacy signature is 65 bytes starting with a header of 27..42. A 65-byte witness stack (a
  // truncated Taproot signature, say) starts with its item count instead and is read as a stack.
  const header = signature[0] ?? 0;
  const legacyLength = signature.length === 65 && !simplePrefix;
  if (legacyLength && header >= 27 && header <= 42) return verifyLegacy(address, input.message, signature);
  const witness = decodeWitnessStack(signature);
  if (witness === undefined) {
    // Neither reading fits: the legacy verifier names the bad header byte.
    if (legacyLength) return verifyLegacy(address, input.message, signature);
    return looksLikeTransaction(signature)
      ? fullSignatureUnsupported()
      : ownershipFailure("MALFORMED_SIGNATURE", "The signature is neither a 65-byte message signature nor a BIP-322 simple signature.");
  }
  const result = verifyBip322Simple(address, input.message, witness);
  if (!result.ok) return result;
  if (result.script) return { ok: true, scheme: "bip322-script", script: result.script };
  return result.signerKey ? { ok: true, scheme: "bip322-simple", signerKey: result.signerKey } : { ok: true, scheme: "bip322-simple" };
}

/**
 * BIP-322 (as revised with its JSON test vectors) marks encoded signatures with a three-letter
 * type: "smp" simple, "ful" full, "pof" proof of funds; unprefixed text is a simple signature.
 * Signature data never starts with these letters (legacy text starts with G to K, the witness
 * count of a simple signature makes it start with A to F), so a prefix cannot be misread as data.
 */
export function decodeBitcoinSignature(text: string): { bytes: Uint8Array; simplePrefix: boolean } | OwnershipFailure {
  const trimmed = typeof text === "string" ? text.trim() : "";
  if (trimmed.length === 0) return ownershipFailure("MALFORMED_SIGNATURE", "The signature is empty.");
  if (trimmed.length > maxBitcoinSignatureLength) {
    return ownershipFailure("MALFORMED_SIGNATURE", "The signature is too long.");
  }
  if (trimmed.startsWith("ful") || trimmed.startsWith("pof")) return fullSignatureUnsupported();
  const simplePrefix = trimmed.startsWith("smp");
  try {
    return { bytes: base64.decode(simplePrefix ? trimmed.slice(3) : trimmed), simplePrefix };
  } catch {
    return ownershipFailure("MALFORMED_SIGNATURE", "The signature is not valid base64.");
  }
}

function verifyPsbt(address: BitcoinAddress, message: string, text: string): BitcoinMessageVerification {
  if (text.length > maxPsbtLength) return ownershipFailure("MALFORMED_SIGNATURE", "The PSBT is too long.");
  let psbt: Uint8Array;
  try {
    psbt = base64.decode(text);
  } catch {
    return ownershipFailure("MALFORMED_SIGNATURE", "The PSBT is not valid base64.");
  }
  return asPsbtScheme(verifyPsbtProof(address, message, psbt));
}

/** A PSBT's verification as the `psbt` scheme, with the script it spent or the single key that signed it. */
function asPsbtScheme(result: PsbtVerification): BitcoinMessageVerification {
  if (!result.ok) return result;
  if (result.script) return { ok: true, scheme: "psbt", script: result.script };
  return result.signerKey ? { ok: true, scheme: "psbt", signerKey: result.signerKey } : { ok: true, scheme: "psbt" };
}

/**
 * The proof's PSBT finished by the wallet, as hex: a segwit transaction of version 0 (BIP-322's
 * `to_sign`), so it starts with 00000000 0001. No other signature is hex.
 */
const signedProofTransaction = /^000000000001[0-9a-f]+$/i;

function verifySignedTransaction(address: BitcoinAddress, message: string, hex: string): BitcoinMessageVerification {
  if (hex.length > maxPsbtLength || hex.length % 2 !== 0)
    return ownershipFailure("MALFORMED_SIGNATURE", "The signed transaction is too long or not whole bytes of hex.");
  return asPsbtScheme(verifySignedProofTransaction(address, message, hexToBytes(hex)));
}

function verifyLegacy(address: BitcoinAddress, message: string, signature: Uint8Array): BitcoinMessageVerification {
  const result = verifyLegacyBitcoinMessage(address, message, signature);
  return result.ok ? { ok: true, scheme: "legacy", signerKey: result.signerKey } : result;
}

function fullSignatureUnsupported(): OwnershipFailure {
  return ownershipFailure("UNSUPPORTED_SIGNATURE", "BIP-322 full and proof-of-funds signatures are not supported; submit a simple signature.");
}

/** A serialised transaction starts with version 0 or 2 (the versions BIP-322 allows). */
function looksLikeTransaction(bytes: Uint8Array): boolean {
  return bytes.length > 60 && (bytes[0] === 0x00 || bytes[0] === 0x02) && bytes[1] === 0 && bytes[2] === 0 && bytes[3] === 0;
}

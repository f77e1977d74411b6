import { schnorr } from "@noble/curves/secp256k1.js";
import { equalBytes } from "@noble/curves/utils.js";
import { hash160, nestedSegwitScriptHash } from "./bitcoin-hashes.js";
import { p2wpkhScriptCode, segwitV0Sighash, taprootKeyPathSighash } from "./bip322-sighash.js";
import { bip322ToSpend } from "./bip322-virtual-transactions.js";
import { ownershipFailure, signatureMismatch, type OwnershipFailure } from "./ownership-failure.js";
import type { BitcoinAddress } from "./parse-bitcoin-address.js";
import { verifyTapscriptSpend, verifyWitnessScriptSpend, type ScriptSpend } from "./verify-bip322-script.js";
import { verifySegwitEcdsaSignature } from "./verify-segwit-ecdsa-signature.js";

/**
 * BIP-322 "simple" signatures: the witness that spends the address's own script in the virtual
 * `to_sign` transaction. Unlike legacy signatures they commit to the address script itself, so a
 * signature for one address can never be presented for another. Single keys are verified here:
 *
 *   P2WPKH        witness [ECDSA signature + SIGHASH_ALL, compressed public key]
 *   P2SH-P2WPKH   the same witness; the redeem script is rebuilt from the key
 *   P2TR          key-path witness [Schnorr signature (64 bytes, or 65 with SIGHASH_ALL)]
 *
 * and scripts (P2WSH and P2SH-P2WSH multisig, Taproot script-path leaves) in
 * `verify-bip322-script.ts`, which answers with the script's template and signers.
 * BIP-322's required rules are enforced: SIGHASH_ALL only (SIGHASH_DEFAULT for Taproot), strict
 * DER, low S, compressed keys. Anything else (annexes, other scripts) is refused as unsupported
 * rather than guessed at.
 */
export function verifyBip322Simple(
  address: BitcoinAddress,
  message: string,
  witness: readonly Uint8Array[],
): { ok: true; script?: ScriptSpend; signerKey?: Uint8Array } | OwnershipFailure {
  switch (address.format) {
    case "P2WPKH":
      return verifyWitnessPublicKeyHash(address, message, witness);
    case "P2SH":
      // A nested key spend is [signature, 33-byte key]; a nested script spend ends with its script.
      return witness.length === 2 && witness[1]?.length === 33
        ? verifyWitnessPublicKeyHash(address, message, witness)
        : verifyWitnessScriptSpend(address, message, witness);
    case "P2WSH":
      return verifyWitnessScriptSpend(address, message, witness);
    case "P2TR":
      return witness.length === 1 ? verifyTaprootKeyPath(address, message, witness) : verifyTapscriptSpend(address, message, witness);
    case "P2PKH":
      return ownershipFailure("UNSUPPORTED_SIGNATURE", "P2PKH addresses prove control with a legacy message signature, not a BIP-322 simple signature.");
  }
}

function verifyWitnessPublicKeyHash(
  address: BitcoinAddress,
  message: string,
  witness: readonly Uint8Array[],
): { ok: true; signerKey: Uint8Array } | OwnershipFailure {
  const [signatureWithType, publicKey] = witness;
  if (witness.length !== 2 || signatureWithType === undefined || publicKey === undefined) {
    return malformed(`A BIP-322 signature for a ${label(address)} address holds a signature and a public key.`);
  }
  if (publicKey.length !== 33 || (publicKey[0] !== 0x02 && publicKey[0] !== 0x03)) {
    return malformed("The public key in the BIP-322 signature must be a 33-byte compressed key.");
  }
  const keyHash = hash160(publicKey);
  const committed = address.format === "P2SH" ? nestedSegwitScriptHash(publicKey) : keyHash;
  if (!equalBytes(committed, address.program)) {
    return ownershipFailure("SIGNATURE_MISMATCH", "The public key in the signature does not belong to this address.");
  }
  const toSpend = bip322ToSpend(address.scriptPubKey, message);
  const sighash = segwitV0Sighash(toSpend.txid, p2wpkhScriptCode(keyHash));
  const result = verifySegwitEcdsaSignature(signatureWithType, publicKey, sighash);
  if (!result.ok) return result;
  return result.valid ? { ok: true, signerKey: publicKey } : signatureMismatch();
}

function verifyTaprootKeyPath(address: BitcoinAddress, message: string, witness: readonly Uint8Array[]): { ok: true } | OwnershipFailure {
  const [signature] = witness;
  if (signature === undefined) return malformed("A Taproot key-path signature holds one item.");
  let hashType: 0x00 | 0x01;
  if (signature.length === 64) {
    hashType = 0x00;
  } else if (signature.length === 65 && signature[64] === 0x01) {
    hashType = 0x01;
  } else if (signature.length === 65) {
    // An explicit 0x00 is invalid under BIP-341; other types are forbidden by BIP-322.
    return malformed("BIP-322 Taproot signatures must use SIGHASH_DEFAULT or SIGHASH_ALL.");
  } else {
    return malformed("A Taproot key-path signature is 64 or 65 bytes long.");
  }
  const toSpend = bip322ToSpend(address.scriptPubKey, message);
  const sighash = taprootKeyPathSighash(toSpend.txid, address.scriptPubKey, hashType);
  const valid = schnorr.verify(signature.subarray(0, 64), sighash, address.program);
  return valid ? { ok: true } : signatureMismatch();
}

function label(address: BitcoinAddress): string {
  return address.format === "P2SH" ? "P2SH-P2WPKH" : address.format;
}

function malformed(reason: string): OwnershipFailure {
  return ownershipFailure("MALFORMED_SIGNATURE", reason);
}

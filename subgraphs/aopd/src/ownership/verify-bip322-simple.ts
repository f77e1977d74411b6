import { schnorr, secp256k1 } from "@noble/curves/secp256k1.js";
import { equalBytes } from "@noble/curves/utils.js";
import { hash160, nestedSegwitScriptHash } from "./bitcoin-hashes.js";
import { p2wpkhScriptCode, segwitV0Sighash, taprootKeyPathSighash } from "./bip322-sighash.js";
import { bip322ToSpend } from "./bip322-virtual-transactions.js";
import { ownershipFailure, signatureMismatch, type OwnershipFailure } from "./ownership-failure.js";
import type { BitcoinAddress } from "./parse-bitcoin-address.js";
import { parseStrictDerSignature } from "./parse-strict-der-signature.js";

/**
 * BIP-322 "simple" signatures: the witness that spends the address's own script in the virtual
 * `to_sign` transaction. Unlike legacy signatures they commit to the address script itself, so a
 * signature for one address can never be presented for another. What is verified here is the
 * single-key subset that a verifier without a script interpreter can check completely:
 *
 *   P2WPKH        witness [ECDSA signature + SIGHASH_ALL, compressed public key]
 *   P2SH-P2WPKH   the same witness; the redeem script is rebuilt from the key
 *   P2TR          key-path witness [Schnorr signature (64 bytes, or 65 with SIGHASH_ALL)]
 *
 * BIP-322's required rules are enforced for these scripts: SIGHASH_ALL only (SIGHASH_DEFAULT for
 * Taproot), strict DER, low S, compressed keys. Anything else (script paths, annexes, P2WSH,
 * multisig) is refused as unsupported rather than guessed at.
 */
export function verifyBip322Simple(
  address: BitcoinAddress,
  message: string,
  witness: readonly Uint8Array[],
): { ok: true } | OwnershipFailure {
  switch (address.format) {
    case "P2WPKH":
    case "P2SH":
      return verifyWitnessPublicKeyHash(address, message, witness);
    case "P2TR":
      return verifyTaprootKeyPath(address, message, witness);
    case "P2PKH":
      return ownershipFailure(
        "UNSUPPORTED_SIGNATURE",
        "P2PKH addresses prove control with a legacy message signature, not a BIP-322 simple signature.",
      );
    case "P2WSH":
      return ownershipFailure(
        "UNSUPPORTED_SIGNATURE",
        "BIP-322 signatures for P2WSH script addresses are not supported; use a single-key address.",
      );
  }
}

function verifyWitnessPublicKeyHash(
  address: BitcoinAddress,
  message: string,
  witness: readonly Uint8Array[],
): { ok: true } | OwnershipFailure {
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
  if (signatureWithType.at(-1) !== 0x01) {
    return malformed("BIP-322 signatures must use SIGHASH_ALL.");
  }
  const parsed = parseStrictDerSignature(signatureWithType.subarray(0, -1));
  if (parsed === undefined) return malformed("The ECDSA signature is not strictly DER encoded.");

  let compact: Uint8Array;
  try {
    const signature = new secp256k1.Signature(parsed.r, parsed.s);
    if (signature.hasHighS()) return malformed("The ECDSA signature has a high S value, which BIP-322 forbids.");
    compact = signature.toBytes("compact");
  } catch {
    return malformed("The ECDSA signature values are out of range.");
  }

  const toSpend = bip322ToSpend(address.scriptPubKey, message);
  const sighash = segwitV0Sighash(toSpend.txid, p2wpkhScriptCode(keyHash));
  const valid = secp256k1.verify(compact, sighash, publicKey, { prehash: false, lowS: true, format: "compact" });
  return valid ? { ok: true } : signatureMismatch();
}

function verifyTaprootKeyPath(
  address: BitcoinAddress,
  message: string,
  witness: readonly Uint8Array[],
): { ok: true } | OwnershipFailure {
  const [signature] = witness;
  if (witness.length !== 1 || signature === undefined) {
    // Two or more items are a script-path spend or carry an annex (BIP-341); neither is a plain
    // key-path proof, and verifying them needs a script interpreter.
    return ownershipFailure(
      "UNSUPPORTED_SIGNATURE",
      "Only key-path BIP-322 signatures are supported for Taproot addresses, not script-path spends or annexes.",
    );
  }
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

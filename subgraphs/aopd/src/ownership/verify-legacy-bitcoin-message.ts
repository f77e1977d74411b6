import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToNumberBE, equalBytes } from "@noble/curves/utils.js";
import { hash160, nestedSegwitScriptHash } from "./bitcoin-hashes.js";
import { bitcoinMessageHash } from "./bitcoin-message-hash.js";
import { ownershipFailure, signatureMismatch, type OwnershipFailure } from "./ownership-failure.js";
import type { BitcoinAddress, BitcoinAddressFormat } from "./parse-bitcoin-address.js";

/**
 * Legacy message signatures carry no public key: the key is recovered from the signature and the
 * message, and the proof holds only if that key hashes to the claimed address. The header byte
 * says how the signer derived the address from its key (BIP-137), and each header is accepted
 * only for the address forms it names, so a signature cannot be "re-labelled" onto a different
 * script. An attacker who could choose the mapping freely still could not forge a signature, but
 * a loose mapping turns one genuine proof into proofs for addresses the signer never declared.
 *
 * Accepted, as Bitcoin Core, Electrum, Trezor and BIP-137 produce them:
 *   27-30  uncompressed key, P2PKH
 *   31-34  compressed key, P2PKH; also P2SH-P2WPKH and P2WPKH (Electrum and Trezor sign segwit
 *          addresses with this header)
 *   35-38  compressed key, P2SH-P2WPKH
 *   39-42  compressed key, P2WPKH
 */

type HeaderKind = "uncompressed" | "compressed" | "p2sh-p2wpkh" | "p2wpkh";

const headerRanges: ReadonlyArray<{ first: number; kind: HeaderKind; formats: readonly BitcoinAddressFormat[] }> = [
  { first: 27, kind: "uncompressed", formats: ["P2PKH"] },
  { first: 31, kind: "compressed", formats: ["P2PKH", "P2SH", "P2WPKH"] },
  { first: 35, kind: "p2sh-p2wpkh", formats: ["P2SH"] },
  { first: 39, kind: "p2wpkh", formats: ["P2WPKH"] },
];

const headerDescription: Record<HeaderKind, string> = {
  uncompressed: "an uncompressed-key P2PKH signature",
  compressed: "a compressed-key signature",
  "p2sh-p2wpkh": "a P2SH-P2WPKH signature",
  p2wpkh: "a native P2WPKH signature",
};

export function verifyLegacyBitcoinMessage(
  address: BitcoinAddress,
  message: string,
  signature: Uint8Array,
): { ok: true; signerKey: Uint8Array } | OwnershipFailure {
  if (signature.length !== 65) {
    return ownershipFailure("MALFORMED_SIGNATURE", "A Bitcoin message signature is exactly 65 bytes long.");
  }
  if (address.format === "P2TR") {
    return ownershipFailure("UNSUPPORTED_SIGNATURE", "Taproot addresses prove control with a BIP-322 signature, not a legacy message signature.");
  }
  if (address.format === "P2WSH") {
    return ownershipFailure("UNSUPPORTED_SIGNATURE", "P2WSH script addresses cannot be proven with a legacy message signature.");
  }
  const header = signature[0] ?? 0;
  const range = headerRanges.find(({ first }) => header >= first && header < first + 4);
  if (range === undefined) {
    return ownershipFailure("MALFORMED_SIGNATURE", "The first byte of the signature is not a Bitcoin message signature header (27 to 42).");
  }
  if (!range.formats.includes(address.format)) {
    return ownershipFailure(
      "SIGNATURE_MISMATCH",
      `The signature is ${headerDescription[range.kind]}, which cannot prove control of a ${address.format} address.`,
    );
  }

  let key: Uint8Array;
  try {
    const recovery = header - range.first;
    const r = bytesToNumberBE(signature.subarray(1, 33));
    const s = bytesToNumberBE(signature.subarray(33, 65));
    const recovered = new secp256k1.Signature(r, s, recovery).recoverPublicKey(bitcoinMessageHash(message));
    key = recovered.toBytes(range.kind !== "uncompressed");
  } catch {
    // Out-of-range r or s, or no curve point for this recovery id: no key signed this.
    return signatureMismatch();
  }

  const expected = address.format === "P2SH" ? nestedSegwitScriptHash(key) : hash160(key);
  return equalBytes(expected, address.program) ? { ok: true, signerKey: key } : signatureMismatch();
}

import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes } from "@noble/hashes/utils.js";
import { doubleSha256, taggedHash } from "./bitcoin-hashes.js";
import { toSignOutput, toSpendOutpoint } from "./bip322-virtual-transactions.js";
import { encodeCompactSize } from "./compact-size.js";

/**
 * Signature hashes of input 0 of a simple BIP-322 `to_sign` transaction (version 0, lock time 0,
 * sequence 0, one input of value 0, one OP_RETURN output). These are the general BIP-143 and
 * BIP-341 algorithms with those constants filled in; BIP-322 allows no other sighash mode than
 * "all", so the anyone-can-pay, none and single branches do not exist here.
 */

const zero4 = new Uint8Array(4);
const zero8 = new Uint8Array(8);

/** SIGHASH_ALL as the 4-byte little-endian trailer of a BIP-143 preimage. */
const sighashAllTrailer = Uint8Array.of(0x01, 0x00, 0x00, 0x00);

/** BIP-143 (segwit v0) sighash with SIGHASH_ALL for the given script code. */
export function segwitV0Sighash(toSpendTxid: Uint8Array, scriptCode: Uint8Array): Uint8Array {
  const outpoint = toSpendOutpoint(toSpendTxid);
  const preimage = concatBytes(
    zero4, // nVersion
    doubleSha256(outpoint), // hashPrevouts
    doubleSha256(zero4), // hashSequence
    outpoint,
    encodeCompactSize(scriptCode.length),
    scriptCode,
    zero8, // amount of the spent output: 0
    zero4, // nSequence
    doubleSha256(toSignOutput), // hashOutputs
    zero4, // nLockTime
    sighashAllTrailer,
  );
  return doubleSha256(preimage);
}

/** The BIP-143 script code of a P2WPKH spend: OP_DUP OP_HASH160 <hash> OP_EQUALVERIFY OP_CHECKSIG. */
export function p2wpkhScriptCode(publicKeyHash: Uint8Array): Uint8Array {
  return Uint8Array.of(0x76, 0xa9, 0x14, ...publicKeyHash, 0x88, 0xac);
}

/**
 * BIP-341 key-path sighash. `hashType` is 0x00 (SIGHASH_DEFAULT, a 64-byte signature) or 0x01
 * (SIGHASH_ALL, a 65-byte signature); both commit to every input and output.
 */
export function taprootKeyPathSighash(toSpendTxid: Uint8Array, scriptPubKey: Uint8Array, hashType: 0x00 | 0x01): Uint8Array {
  return taggedHash("TapSighash", taprootCommonMessage(toSpendTxid, scriptPubKey, hashType, 0x00));
}

/**
 * BIP-342 script-path sighash: the key-path message with spend_type 2 (extension, no annex) and
 * the extension of BIP-342: the leaf's hash, key version 0 and no OP_CODESEPARATOR executed.
 */
export function tapscriptSighash(toSpendTxid: Uint8Array, scriptPubKey: Uint8Array, hashType: 0x00 | 0x01, tapLeafHash: Uint8Array): Uint8Array {
  const message = concatBytes(
    taprootCommonMessage(toSpendTxid, scriptPubKey, hashType, 0x02),
    tapLeafHash,
    Uint8Array.of(0x00), // key_version
    Uint8Array.of(0xff, 0xff, 0xff, 0xff), // codesep_pos: none
  );
  return taggedHash("TapSighash", message);
}

function taprootCommonMessage(toSpendTxid: Uint8Array, scriptPubKey: Uint8Array, hashType: 0x00 | 0x01, spendType: 0x00 | 0x02): Uint8Array {
  return concatBytes(
    Uint8Array.of(0x00), // sighash epoch
    Uint8Array.of(hashType),
    zero4, // nVersion
    zero4, // nLockTime
    sha256(toSpendOutpoint(toSpendTxid)), // sha_prevouts
    sha256(zero8), // sha_amounts
    sha256(concatBytes(encodeCompactSize(scriptPubKey.length), scriptPubKey)), // sha_scriptpubkeys
    sha256(zero4), // sha_sequences
    sha256(toSignOutput), // sha_outputs
    Uint8Array.of(spendType), // spend_type: key path (0) or script path (2), no annex
    zero4, // input_index
  );
}

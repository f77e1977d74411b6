import { concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { doubleSha256, taggedHash } from "./bitcoin-hashes.js";
import { encodeCompactSize } from "./compact-size.js";

/**
 * The two virtual transactions of BIP-322. `to_spend` pays zero to the address's script and
 * commits to the message through its (unspendable) input; `to_sign` spends it. A signature over
 * `to_sign` therefore commits to both the message and the address script, and can never be
 * replayed as a real transaction because `to_spend`'s input does not exist on any chain.
 *
 * Only the simple form is built here: version 0, lock time 0, sequence 0, one input, one
 * OP_RETURN output, as BIP-322 prescribes for "simple" signatures.
 */

const zero4 = new Uint8Array(4);
const zero8 = new Uint8Array(8);
const one = Uint8Array.of(1);

/** The single output of `to_sign`: value 0, scriptPubKey OP_RETURN. */
export const toSignOutput = concatBytes(zero8, Uint8Array.of(0x01, 0x6a));

/** sha256_tag(message) with tag "BIP0322-signed-message". */
export function bip322MessageHash(message: string): Uint8Array {
  return taggedHash("BIP0322-signed-message", utf8ToBytes(message));
}

/** Serialisation (no witness) and txid, in internal byte order, of `to_spend`. */
export function bip322ToSpend(messageChallenge: Uint8Array, message: string): { serialized: Uint8Array; txid: Uint8Array } {
  const messageHash = bip322MessageHash(message);
  const serialized = concatBytes(
    zero4, // nVersion 0
    one, // one input
    new Uint8Array(32), // prevout hash 000...000
    Uint8Array.of(0xff, 0xff, 0xff, 0xff), // prevout n 0xFFFFFFFF
    Uint8Array.of(0x22, 0x00, 0x20), // scriptSig: 34 bytes, OP_0 PUSH32
    messageHash,
    zero4, // nSequence 0
    one, // one output
    zero8, // nValue 0
    encodeCompactSize(messageChallenge.length),
    messageChallenge,
    zero4, // nLockTime 0
  );
  return { serialized, txid: doubleSha256(serialized) };
}

/**
 * Serialisation (no witness) and txid of `to_sign`. `scriptSig` is empty except for P2SH-wrapped
 * segwit, where it pushes the redeem script.
 */
export function bip322ToSign(toSpendTxid: Uint8Array, scriptSig: Uint8Array = new Uint8Array(0)): { serialized: Uint8Array; txid: Uint8Array } {
  const serialized = concatBytes(
    zero4, // nVersion 0
    one,
    toSpendOutpoint(toSpendTxid),
    encodeCompactSize(scriptSig.length),
    scriptSig,
    zero4, // nSequence 0
    one,
    toSignOutput,
    zero4, // nLockTime 0
  );
  return { serialized, txid: doubleSha256(serialized) };
}

/** The outpoint `to_sign` spends: output 0 of `to_spend`. */
export function toSpendOutpoint(toSpendTxid: Uint8Array): Uint8Array {
  return concatBytes(toSpendTxid, zero4);
}

/** Txids are displayed byte-reversed; this gives the form block explorers and the BIP show. */
export function displayTxid(txid: Uint8Array): string {
  return Array.from(txid, (byte) => byte.toString(16).padStart(2, "0"))
    .reverse()
    .join("");
}

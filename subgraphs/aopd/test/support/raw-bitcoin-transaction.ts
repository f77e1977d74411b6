import { createHash } from "node:crypto";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { base58check, bech32, bech32m } from "@scure/base";

/** A serialized Bitcoin transaction, read far enough to check a recorded explorer answer against it. */
export interface RawBitcoinTransaction {
  /** The txid as explorers write it: double SHA-256 of the serialization without witnesses, byte-reversed. */
  txid: string;
  /** Each input's witness items (hex), empty for a legacy input. */
  inputs: { witness: string[] }[];
  outputs: { value: bigint; script: string }[];
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest();

/**
 * Parses the `hex` field of a Blockbook answer (BIP 144 serialization, with or without
 * witnesses). The recorded fixtures are checked against it: a txid, an amount or an output
 * script that does not follow from the transaction's own bytes was edited, not recorded.
 */
export function parseRawBitcoinTransaction(hex: string): RawBitcoinTransaction {
  const bytes = Buffer.from(hex, "hex");
  let at = 0;
  const take = (length: number) => {
    if (at + length > bytes.length) throw new Error("the transaction ends early");
    const slice = bytes.subarray(at, at + length);
    at += length;
    return slice;
  };
  const varInt = () => {
    const first = take(1)[0]!;
    if (first < 0xfd) return first;
    const size = first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
    return Number(take(size).readUIntLE(0, Math.min(size, 6)));
  };
  const version = take(4);
  const segwit = bytes[at] === 0 && bytes[at + 1] === 1;
  if (segwit) take(2);
  const bodyStart = at;
  const inputCount = varInt();
  for (let index = 0; index < inputCount; index += 1) {
    take(36);
    take(varInt());
    take(4);
  }
  const outputs: RawBitcoinTransaction["outputs"] = [];
  const outputCount = varInt();
  for (let index = 0; index < outputCount; index += 1) {
    const value = take(8).readBigUInt64LE(0);
    outputs.push({ value, script: take(varInt()).toString("hex") });
  }
  const bodyEnd = at;
  const inputs = Array.from({ length: inputCount }, () => ({ witness: [] as string[] }));
  if (segwit) {
    for (const input of inputs) {
      const items = varInt();
      for (let item = 0; item < items; item += 1) input.witness.push(take(varInt()).toString("hex"));
    }
  }
  const lockTime = take(4);
  if (at !== bytes.length) throw new Error("bytes after the lock time");
  const stripped = Buffer.concat([version, bytes.subarray(bodyStart, bodyEnd), lockTime]);
  return {
    txid: Buffer.from(sha256(sha256(stripped)))
      .reverse()
      .toString("hex"),
    inputs,
    outputs,
  };
}

/**
 * The P2WPKH address that a witness (signature, 33-byte public key) spends from, or null for
 * other witnesses: the sender of such an input follows from the transaction's own bytes.
 */
export function p2wpkhAddressOfWitness(witness: string[]): string | null {
  if (witness.length !== 2 || witness[1]!.length !== 66) return null;
  return bech32.encode("bc", [0, ...bech32.toWords(ripemd160(sha256(Buffer.from(witness[1]!, "hex"))))]);
}

/** The mainnet address an output script pays (P2PKH, P2SH, segwit v0 and v1), or null for other scripts. */
export function addressOfOutputScript(script: string): string | null {
  const bytes = Buffer.from(script, "hex");
  const check = base58check(sha256);
  if (bytes.length === 25 && script.startsWith("76a914") && script.endsWith("88ac")) return check.encode(Uint8Array.from([0x00, ...bytes.subarray(3, 23)]));
  if (bytes.length === 23 && script.startsWith("a914") && script.endsWith("87")) return check.encode(Uint8Array.from([0x05, ...bytes.subarray(2, 22)]));
  const version = bytes[0] === 0 ? 0 : bytes[0]! >= 0x51 && bytes[0]! <= 0x60 ? bytes[0]! - 0x50 : -1;
  if (version >= 0 && bytes[1] === bytes.length - 2 && bytes.length >= 4) {
    const words = [version, ...bech32.toWords(bytes.subarray(2))];
    return version === 0 ? bech32.encode("bc", words) : bech32m.encode("bc", words);
  }
  return null;
}

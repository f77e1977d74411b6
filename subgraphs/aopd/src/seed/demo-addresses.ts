import { keccak_256 } from "@noble/hashes/sha3.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { base58, base58check, bech32, bech32m } from "@scure/base";
import type { AddressFormat } from "../database/database-schema.js";
import type { SeededRandom } from "./seeded-random.js";

const b58c = base58check(sha256);

function withVersion(version: number | number[], payload: Uint8Array): Uint8Array {
  const prefix = Array.isArray(version) ? version : [version];
  const out = new Uint8Array(prefix.length + payload.length);
  out.set(prefix, 0);
  out.set(payload, prefix.length);
  return out;
}

/** Mainnet Bitcoin addresses of each format, with correct checksums (random keys: nobody controls them). */
export function bitcoinAddress(random: SeededRandom, format: Exclude<AddressFormat, "ANY" | "STANDARD">): string {
  switch (format) {
    case "P2PKH":
      return b58c.encode(withVersion(0x00, random.bytes(20)));
    case "P2SH":
      return b58c.encode(withVersion(0x05, random.bytes(20)));
    case "P2WPKH":
      return bech32.encode("bc", [0, ...bech32.toWords(random.bytes(20))]);
    case "P2WSH":
      return bech32.encode("bc", [0, ...bech32.toWords(random.bytes(32))]);
    case "P2TR":
      return bech32m.encode("bc", [1, ...bech32m.toWords(random.bytes(32))]);
  }
}

/** An Ethereum-style address with its EIP-55 mixed-case checksum. */
export function ethereumAddress(random: SeededRandom): string {
  const hex = random.hex(20);
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(hex))).toString("hex");
  let out = "0x";
  for (let i = 0; i < hex.length; i += 1) {
    const character = hex[i] as string;
    out += parseInt(hash[i] as string, 16) >= 8 ? character.toUpperCase() : character;
  }
  return out;
}

export function solanaAddress(random: SeededRandom): string {
  return base58.encode(random.bytes(32));
}

export function tronAddress(random: SeededRandom): string {
  return b58c.encode(withVersion(0x41, random.bytes(20)));
}

/** A Lightning node id: a compressed public key in hex. */
export function lightningNodeId(random: SeededRandom): string {
  return `0${2 + random.int(2)}${random.hex(32)}`;
}

/** A BIP-32 extended public key (mainnet `xpub`) with a valid checksum. */
export function extendedPublicKey(random: SeededRandom): string {
  const body = new Uint8Array(78);
  body.set([0x04, 0x88, 0xb2, 0x1e], 0);
  body[4] = 3; // depth of an account key, m/84'/0'/0'
  body.set(random.bytes(4), 5);
  body.set([0x80, 0x00, 0x00, 0x00], 9);
  body.set(random.bytes(32), 13);
  body[45] = 2 + random.int(2);
  body.set(random.bytes(32), 46);
  return b58c.encode(body);
}

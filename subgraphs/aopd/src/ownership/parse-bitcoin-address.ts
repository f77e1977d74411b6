import { sha256 } from "@noble/hashes/sha2.js";
import { bech32, bech32m, createBase58check } from "@scure/base";
import { ownershipFailure, type OwnershipFailure } from "./ownership-failure.js";

/**
 * A proof of control is only as good as the address it is checked against: an address that is
 * read loosely (a typo that still decodes, a bech32 string with a bech32m checksum, a program of
 * the wrong length) could make a valid signature "prove" control of coins at a different script.
 * This parser accepts exactly the encodings of BIP-13/BIP-16 (base58check), BIP-173 (bech32,
 * witness v0) and BIP-350 (bech32m, witness v1 Taproot) and nothing else.
 */

export type BitcoinNetwork = "mainnet" | "testnet" | "regtest";
export type BitcoinAddressFormat = "P2PKH" | "P2SH" | "P2WPKH" | "P2WSH" | "P2TR";

export interface BitcoinAddress {
  /**
   * Base58 addresses share their version bytes between testnet and regtest; such an address is
   * reported as `testnet` and is accepted on both (see `bitcoinNetworkMatches`).
   */
  readonly network: BitcoinNetwork;
  readonly encoding: "base58check" | "bech32" | "bech32m";
  readonly format: BitcoinAddressFormat;
  /** The 20-byte hash of P2PKH/P2SH, or the witness program (20 or 32 bytes) of a segwit address. */
  readonly program: Uint8Array;
  /** The output script that pays to the address. */
  readonly scriptPubKey: Uint8Array;
}

export type ParsedBitcoinAddress = ({ readonly ok: true } & BitcoinAddress) | OwnershipFailure;

const base58check = createBase58check(sha256);
const base58Alphabet = /^[1-9A-HJ-NP-Za-km-z]+$/;

const base58Versions: Record<number, { network: BitcoinNetwork; format: "P2PKH" | "P2SH" }> = {
  0x00: { network: "mainnet", format: "P2PKH" },
  0x05: { network: "mainnet", format: "P2SH" },
  0x6f: { network: "testnet", format: "P2PKH" },
  0xc4: { network: "testnet", format: "P2SH" },
};

const segwitPrefixes: Record<string, BitcoinNetwork> = { bc: "mainnet", tb: "testnet", bcrt: "regtest" };

/** BIP-173 caps a segwit address at 90 characters. */
const maxBech32Length = 90;

export function parseBitcoinAddress(address: string): ParsedBitcoinAddress {
  if (typeof address !== "string" || address.length === 0) return invalid("The address is empty.");
  const lower = address.toLowerCase();
  if (/^(bc|tb|bcrt)1/.test(lower)) return parseSegwit(address, lower);
  return parseBase58(address);
}

function parseBase58(address: string): ParsedBitcoinAddress {
  if (!base58Alphabet.test(address)) {
    return invalid("The address contains characters that are not allowed in a Bitcoin address.");
  }
  // 21 bytes plus a 4-byte checksum encode to 25..35 base58 characters.
  if (address.length < 25 || address.length > 35) return invalid("The address has the wrong length.");
  let payload: Uint8Array;
  try {
    payload = base58check.decode(address);
  } catch {
    return invalid("The address checksum is wrong; check it for typing errors.");
  }
  const version = payload[0];
  const kind = version === undefined ? undefined : base58Versions[version];
  if (payload.length !== 21 || kind === undefined) {
    return invalid("The address is not a Bitcoin P2PKH or P2SH address.");
  }
  const hash = payload.slice(1);
  const scriptPubKey = kind.format === "P2PKH" ? Uint8Array.of(0x76, 0xa9, 0x14, ...hash, 0x88, 0xac) : Uint8Array.of(0xa9, 0x14, ...hash, 0x87);
  return { ok: true, ...kind, encoding: "base58check", program: hash, scriptPubKey };
}

function parseSegwit(address: string, lower: string): ParsedBitcoinAddress {
  if (address !== lower && address !== address.toUpperCase()) {
    return invalid("The address mixes upper and lower case, which bech32 addresses never do.");
  }
  if (address.length > maxBech32Length) return invalid("The address is too long for a segwit address.");
  // Exactly one of the two checksums can hold for a given string (BIP-350).
  const asBech32 = bech32.decodeUnsafe(lower, maxBech32Length);
  const asBech32m = asBech32 ? undefined : bech32m.decodeUnsafe(lower, maxBech32Length);
  const decoded = asBech32 ?? asBech32m;
  if (!decoded) return invalid("The address checksum is wrong; check it for typing errors.");
  const network = segwitPrefixes[decoded.prefix];
  if (network === undefined) return invalid("The address does not start with bc1, tb1 or bcrt1.");
  const [version, ...programWords] = decoded.words;
  if (version === undefined || version > 16) return invalid("The address has no valid witness version.");
  // Witness v0 must carry a bech32 checksum and v1+ a bech32m one; the other is a known mistake.
  if ((version === 0) !== Boolean(asBech32)) {
    return invalid(
      version === 0
        ? "The address is a version 0 segwit address but carries a bech32m checksum."
        : "The address is a Taproot (or later) segwit address but carries a bech32 checksum instead of bech32m.",
    );
  }
  const program = bech32.fromWordsUnsafe(programWords);
  if (!program || program.length < 2 || program.length > 40) {
    return invalid("The address has a witness program of invalid length.");
  }
  const format = segwitFormat(version, program.length);
  if (format === undefined) {
    return version === 0
      ? invalid("The address has a version 0 witness program that is neither 20 nor 32 bytes long.")
      : invalid(`Segwit version ${version} addresses of this length are not supported; only Taproot is.`);
  }
  const versionOpcode = version === 0 ? 0x00 : 0x50 + version;
  return {
    ok: true,
    network,
    encoding: version === 0 ? "bech32" : "bech32m",
    format,
    program,
    scriptPubKey: Uint8Array.of(versionOpcode, program.length, ...program),
  };
}

function segwitFormat(version: number, length: number): BitcoinAddressFormat | undefined {
  if (version === 0 && length === 20) return "P2WPKH";
  if (version === 0 && length === 32) return "P2WSH";
  if (version === 1 && length === 32) return "P2TR";
  return undefined;
}

function invalid(reason: string): OwnershipFailure {
  return ownershipFailure("INVALID_ADDRESS", reason);
}

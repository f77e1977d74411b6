import { sha256 } from "@noble/hashes/sha2.js";
import { createBase58check } from "@scure/base";
import { ownershipFailure, type OwnershipFailure } from "./ownership-failure.js";

/**
 * A TRON address is base58check (double SHA-256 checksum) over 21 bytes: the prefix 0x41 and the
 * same 20-byte Keccak address Ethereum derives from a secp256k1 key, so it starts with `T`. The
 * checksum catches a mistyped character; the prefix keeps a Bitcoin base58 address out.
 */

export type ParsedTronAddress = { readonly ok: true; readonly bytes: Uint8Array } | OwnershipFailure;

const base58check = createBase58check(sha256);
const tronPrefix = 0x41;

export function parseTronAddress(address: string): ParsedTronAddress {
  const refusal = ownershipFailure(
    "INVALID_ADDRESS",
    "A TRON address is base58check starting with T (34 characters, for example TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t).",
  );
  if (typeof address !== "string" || !/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return refusal;
  let payload: Uint8Array;
  try {
    payload = base58check.decode(address);
  } catch {
    return ownershipFailure("INVALID_ADDRESS", "The TRON address's checksum does not match; check it for typing errors.");
  }
  if (payload.length !== 21 || payload[0] !== tronPrefix) return refusal;
  return { ok: true, bytes: payload.subarray(1) };
}

/** The `T...` address of a 20-byte Keccak address. */
export function toTronAddress(keccakAddress: Uint8Array): string {
  const payload = new Uint8Array(21);
  payload[0] = tronPrefix;
  payload.set(keccakAddress, 1);
  return base58check.encode(payload);
}

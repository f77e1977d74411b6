import { base58 } from "@scure/base";
import { ownershipFailure, type OwnershipFailure } from "./ownership-failure.js";

/**
 * A Solana address is the base58 of a 32-byte ed25519 public key (SPL tokens are held by the same
 * wallet address; the token account is derived from it). Base58 has no checksum, so a typing
 * error yields another valid-looking key, whose signature then cannot verify.
 */

export type ParsedSolanaAddress = { readonly ok: true; readonly publicKey: Uint8Array } | OwnershipFailure;

export function parseSolanaAddress(address: string): ParsedSolanaAddress {
  const refusal = ownershipFailure("INVALID_ADDRESS", "A Solana address is the base58 of a 32-byte public key (32 to 44 characters, no 0, O, I or l).");
  if (typeof address !== "string" || !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) return refusal;
  const publicKey = base58.decode(address);
  return publicKey.length === 32 ? { ok: true, publicKey } : refusal;
}

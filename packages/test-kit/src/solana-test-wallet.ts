import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";

/** The base58 address of an ed25519 key: the public key itself. */
export function solanaAddressOf(secretKey: Uint8Array): string {
  return base58.encode(ed25519.getPublicKey(secretKey));
}

/** A wallet's `signMessage`: ed25519 over the message's UTF-8 bytes, no prefix. */
export function signSolanaMessage(secretKey: Uint8Array, message: string): Uint8Array {
  return ed25519.sign(new TextEncoder().encode(message), secretKey);
}

import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { ownershipFailure, type OwnershipFailure } from "./ownership-failure.js";

/**
 * Ethereum addresses carry no checksum of their own; EIP-55 hides one in the letter case. A
 * mixed-case address whose case does not match is a mistyped (or tampered) address and is
 * refused, so a proof is never recorded against an address one character away from the real one.
 * All-lowercase and all-uppercase addresses carry no checksum and are accepted as they are.
 */

export type ParsedEthereumAddress =
  | {
      readonly ok: true;
      /** The address in its EIP-55 checksummed form. */
      readonly checksummed: string;
      readonly bytes: Uint8Array;
    }
  | OwnershipFailure;

export function parseEthereumAddress(address: string): ParsedEthereumAddress {
  if (typeof address !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(address)) {
    return ownershipFailure("INVALID_ADDRESS", "An Ethereum address is 0x followed by 40 hexadecimal characters.");
  }
  const body = address.slice(2);
  const checksummed = toEip55Address(body);
  const mixedCase = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixedCase && checksummed !== address) {
    return ownershipFailure("INVALID_ADDRESS", "The address has mixed-case letters that do not match its EIP-55 checksum; check it for typing errors.");
  }
  return { ok: true, checksummed, bytes: hexToBytes(body.toLowerCase()) };
}

/** EIP-55: a letter is upper case where the matching nibble of keccak256(lower-case hex) is >= 8. */
export function toEip55Address(hexOrBytes: string | Uint8Array): string {
  const lower = (typeof hexOrBytes === "string" ? hexOrBytes.replace(/^0x/i, "") : bytesToHex(hexOrBytes)).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = "0x";
  for (let i = 0; i < lower.length; i += 1) {
    const char = lower[i] ?? "";
    out += Number.parseInt(hash[i] ?? "0", 16) >= 8 ? char.toUpperCase() : char;
  }
  return out;
}

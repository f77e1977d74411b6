import { sha256 } from "@noble/hashes/sha2.js";
import { HDKey } from "@scure/bip32";
import { createBase58check } from "@scure/base";
import { ownershipFailure, type OwnershipFailure } from "./ownership-failure.js";

/**
 * Reads a BIP-32 extended public key and decides, from its version bytes (SLIP-132), which single
 * key address forms its children may take. A plain xpub/tpub says nothing about the script, so
 * all four single-key forms are allowed; ypub/upub and zpub/vpub name exactly one.
 *
 * An extended *private* key is refused with a warning and never echoed back: a user who pastes
 * one has exposed every key of the wallet, and the service must not store or log it.
 */

export type XpubAddressForm = "P2PKH" | "P2SH-P2WPKH" | "P2WPKH" | "P2TR";

export interface ExtendedPublicKey {
  readonly key: HDKey;
  readonly network: "mainnet" | "testnet";
  readonly forms: readonly XpubAddressForm[];
}

export type ParsedExtendedPublicKey = ({ readonly ok: true } & ExtendedPublicKey) | OwnershipFailure;

const anyForm: readonly XpubAddressForm[] = ["P2PKH", "P2SH-P2WPKH", "P2WPKH", "P2TR"];

/** Public version -> (matching private version, network, forms). */
const publicVersions = new Map<number, { private: number; network: "mainnet" | "testnet"; forms: readonly XpubAddressForm[] }>([
  [0x0488b21e, { private: 0x0488ade4, network: "mainnet", forms: anyForm }], // xpub
  [0x049d7cb2, { private: 0x049d7878, network: "mainnet", forms: ["P2SH-P2WPKH"] }], // ypub
  [0x04b24746, { private: 0x04b2430c, network: "mainnet", forms: ["P2WPKH"] }], // zpub
  [0x043587cf, { private: 0x04358394, network: "testnet", forms: anyForm }], // tpub
  [0x044a5262, { private: 0x044a4e28, network: "testnet", forms: ["P2SH-P2WPKH"] }], // upub
  [0x045f1cf6, { private: 0x045f18bc, network: "testnet", forms: ["P2WPKH"] }], // vpub
]);

/** SLIP-132 multi-signature public versions (Ypub, Zpub, Upub, Vpub): one key proves nothing there. */
const multisigVersions = new Set([0x0295b43f, 0x02aa7ed3, 0x024289ef, 0x02575483]);

/** xprv, yprv, zprv, tprv, uprv, vprv and the multi-signature Yprv, Zprv, Uprv, Vprv. */
const privateVersions = new Set([0x0488ade4, 0x049d7878, 0x04b2430c, 0x04358394, 0x044a4e28, 0x045f18bc, 0x0295b005, 0x02aa7a99, 0x024285b5, 0x02575048]);

const base58check = createBase58check(sha256);

export function parseExtendedPublicKey(text: string): ParsedExtendedPublicKey {
  const trimmed = typeof text === "string" ? text.trim() : "";
  // 78 bytes with a checksum are 111 or 112 base58 characters.
  if (trimmed.length < 100 || trimmed.length > 120) {
    return invalid("An extended public key (xpub, ypub, zpub, tpub, upub or vpub) is 111 characters long.");
  }
  let payload: Uint8Array;
  try {
    payload = base58check.decode(trimmed);
  } catch {
    return invalid("The extended public key is not valid base58check; check it for typing errors.");
  }
  if (payload.length !== 78) return invalid("The extended public key has the wrong length.");
  const version = new DataView(payload.buffer, payload.byteOffset, 4).getUint32(0, false);
  if (privateVersions.has(version) || payload[45] === 0x00) {
    return invalid("This is an extended private key. Never share it: anyone holding it controls the wallet. Submit the extended public key instead.");
  }
  if (multisigVersions.has(version)) {
    return invalid("Multi-signature extended keys (Ypub, Zpub, Upub, Vpub) are not supported.");
  }
  const kind = publicVersions.get(version);
  if (kind === undefined) {
    return invalid("The extended key is not a Bitcoin xpub, ypub, zpub, tpub, upub or vpub.");
  }
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(trimmed, { public: version, private: kind.private });
  } catch {
    return invalid("The extended public key does not hold a valid public key.");
  }
  return { ok: true, key, network: kind.network, forms: kind.forms };
}

function invalid(reason: string): OwnershipFailure {
  return ownershipFailure("INVALID_EXTENDED_KEY", reason);
}

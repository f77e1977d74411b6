import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToNumberBE } from "@noble/curves/utils.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bech32, createBase58check } from "@scure/base";
import type { AssetFamily } from "./address-matches-format.js";
import { hash160, nestedSegwitScriptHash } from "./bitcoin-hashes.js";
import { bitcoinMessageHash } from "./bitcoin-message-hash.js";
import { decodeWitnessStack } from "./decode-witness-stack.js";
import { parseBitcoinAddress, type BitcoinNetwork } from "./parse-bitcoin-address.js";
import { toEip55Address } from "./parse-ethereum-address.js";
import { toTronAddress } from "./parse-tron-address.js";
import { decodeBitcoinSignature } from "./verify-bitcoin-message.js";
import { ethereumMessageHash } from "./verify-ethereum-message.js";
import { tronMessageHash } from "./verify-tron-message.js";
import { decodeRecoverableSignature, keccakAddressOf, recoverKeccakSigner } from "./recover-keccak-address.js";

/**
 * A sanctioned party does not have to prove the address that is listed: one key controls several
 * addresses, and a customer could prove the P2WPKH address of a key whose P2PKH address OFAC names,
 * or the TRON address of a key whose Ethereum address it names. Where a signature reveals the
 * signer's public key (a legacy Bitcoin message signature and Ethereum's and TRON's recoverable
 * signatures recover it; a BIP-322 P2WPKH or P2SH-P2WPKH signature carries it), these are the
 * addresses that key controls on its chain family, so that screening can check every one.
 *
 * Not covered, because the signature reveals no key whose other addresses follow from it: Taproot
 * (the output key is tweaked), Solana (one address per key), contract wallets (ERC-1271: the
 * contract, not a key, is the owner), xpub proofs' other derivations, Satoshi and media proofs.
 */

/** One address a key controls: its form, the screened family it is matched on, and the address. */
export interface KeyAddress {
  form: KeyAddressForm;
  family: "bitcoin" | "ethereum" | "tron" | "bnb-beacon";
  address: string;
}

/**
 * `P2PKH`, `P2WPKH`, `P2SH_P2WPKH`: a Bitcoin key's single-key addresses (from its compressed form).
 * `EVM`, `TRON`: the one 20-byte Keccak address of a secp256k1 key, as every EVM chain and TRON write it.
 * `BNB_BEACON`: the retired BNB Beacon Chain's `bnb1...` address of that key (bech32 of HASH160 of
 * the compressed key), which OFAC lists under `BNB`; Binance's wallets used one key for both chains.
 */
export type KeyAddressForm = "P2PKH" | "P2WPKH" | "P2SH_P2WPKH" | "EVM" | "TRON" | "BNB_BEACON";

const base58check = createBase58check(sha256);
const bitcoinPrefixes: Record<BitcoinNetwork, { p2pkh: number; p2sh: number; hrp: string }> = {
  mainnet: { p2pkh: 0x00, p2sh: 0x05, hrp: "bc" },
  testnet: { p2pkh: 0x6f, p2sh: 0xc4, hrp: "tb" },
  regtest: { p2pkh: 0x6f, p2sh: 0xc4, hrp: "bcrt" },
};

/** A Bitcoin key's single-key addresses on one network, from the compressed key (33 bytes). */
export function bitcoinKeyAddresses(compressedPublicKey: Uint8Array, network: BitcoinNetwork): KeyAddress[] {
  const prefix = bitcoinPrefixes[network];
  const keyHash = hash160(compressedPublicKey);
  return [
    { form: "P2PKH", family: "bitcoin", address: base58check.encode(Uint8Array.of(prefix.p2pkh, ...keyHash)) },
    { form: "P2WPKH", family: "bitcoin", address: bech32.encode(prefix.hrp, [0, ...bech32.toWords(keyHash)]) },
    { form: "P2SH_P2WPKH", family: "bitcoin", address: base58check.encode(Uint8Array.of(prefix.p2sh, ...nestedSegwitScriptHash(compressedPublicKey))) },
  ];
}

/** The addresses of the secp256k1 key behind an EVM or TRON address (any encoding of the key). */
export function secp256k1KeyAddresses(publicKey: Uint8Array): KeyAddress[] {
  const point = secp256k1.Point.fromBytes(publicKey);
  const keccak = keccakAddressOf(point.toBytes(false));
  return [
    { form: "EVM", family: "ethereum", address: toEip55Address(keccak) },
    { form: "TRON", family: "tron", address: toTronAddress(keccak) },
    { form: "BNB_BEACON", family: "bnb-beacon", address: bech32.encode("bnb", bech32.toWords(hash160(point.toBytes(true)))) },
  ];
}

/**
 * The addresses the key behind a verified signature controls; empty when the signature reveals no
 * key. Call it only after `verifyOwnershipSignature` accepted the signature. As a second lock, a key
 * is used only when one of its addresses is the proven address itself: a key that does not hash to
 * what was proven names nothing.
 */
export function keyAddressesOf(input: { assetFamily: AssetFamily; address: string; message: string; signature: string }): KeyAddress[] {
  try {
    const addresses =
      input.assetFamily === "bitcoin"
        ? bitcoinSignerAddresses(input)
        : input.assetFamily === "ethereum" || input.assetFamily === "tron"
          ? keccakSignerAddresses(input)
          : [];
    return provesItsOwn(addresses, input) ? addresses : [];
  } catch {
    // A signature that verified but yields no key here reveals nothing more; screening goes on with the proven address alone.
    return [];
  }
}

function bitcoinSignerAddresses(input: { address: string; message: string; signature: string }): KeyAddress[] {
  const address = parseBitcoinAddress(input.address);
  const decoded = decodeBitcoinSignature(input.signature);
  if (!address.ok || !("bytes" in decoded)) return [];
  const { bytes } = decoded;
  const header = bytes[0] ?? 0;
  if (bytes.length === 65 && !decoded.simplePrefix && header >= 27 && header <= 42) {
    // BIP-137: the header is 27 + 4 * (key and address kind) + recovery id; 27-30 sign with the uncompressed key.
    const signature = new secp256k1.Signature(bytesToNumberBE(bytes.subarray(1, 33)), bytesToNumberBE(bytes.subarray(33, 65)), (header - 27) % 4);
    const point = signature.recoverPublicKey(bitcoinMessageHash(input.message));
    const siblings = bitcoinKeyAddresses(point.toBytes(true), address.network);
    // The uncompressed key's P2PKH address is one more the key controls, and the proven one when it signed that way.
    if (header < 31)
      siblings.unshift({
        form: "P2PKH",
        family: "bitcoin",
        address: base58check.encode(Uint8Array.of(bitcoinPrefixes[address.network].p2pkh, ...hash160(point.toBytes(false)))),
      });
    return siblings;
  }
  const witness = decodeWitnessStack(bytes);
  const key = witness?.length === 2 ? witness[1] : undefined;
  return key?.length === 33 ? bitcoinKeyAddresses(key, address.network) : [];
}

function keccakSignerAddresses(input: { assetFamily: AssetFamily; message: string; signature: string }): KeyAddress[] {
  const tron = input.assetFamily === "tron";
  const signature = decodeRecoverableSignature(input.signature, tron ? "TRON" : "Ethereum");
  if (!(signature instanceof Uint8Array)) return [];
  const key = recoverKeccakSigner(signature, tron ? tronMessageHash(input.message) : ethereumMessageHash(input.message));
  return key instanceof Uint8Array ? secp256k1KeyAddresses(key) : [];
}

function provesItsOwn(addresses: readonly KeyAddress[], input: { assetFamily: AssetFamily; address: string }): boolean {
  const proven = input.assetFamily === "ethereum" || /^(bc|tb|bcrt)1/i.test(input.address) ? input.address.toLowerCase() : input.address;
  return addresses.some(
    (sibling) => (input.assetFamily === "ethereum" || sibling.form === "P2WPKH" ? sibling.address.toLowerCase() : sibling.address) === proven,
  );
}

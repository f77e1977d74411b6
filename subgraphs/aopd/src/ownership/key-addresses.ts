import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bech32, createBase58check } from "@scure/base";
import type { AssetFamily } from "./address-matches-format.js";
import { hash160, nestedSegwitScriptHash } from "./bitcoin-hashes.js";
import { parseBitcoinAddress, type BitcoinNetwork } from "./parse-bitcoin-address.js";
import { toEip55Address } from "./parse-ethereum-address.js";
import { toTronAddress } from "./parse-tron-address.js";
import { keccakAddressOf } from "./recover-keccak-address.js";

/**
 * A sanctioned party does not have to prove the address that is listed: one key controls several
 * addresses, and a customer could prove the P2WPKH address of a key whose P2PKH address OFAC names,
 * or the TRON address of a key whose Ethereum address it names. Where a signature reveals the
 * signer's public key (a legacy Bitcoin message signature and Ethereum's and TRON's recoverable
 * signatures recover it; a BIP-322 P2WPKH or P2SH-P2WPKH signature carries it, and so does the
 * proof's PSBT signed by such a key), these are the addresses that key controls on its chain
 * family, so that screening can check every one.
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
 * key. `signerKey` is the key `verifyOwnershipSignature` recovered or read from the signature (its
 * `ok` result), so the key is recovered once, by the verifier that accepted it. As a second lock,
 * a key is used only when one of its addresses is the proven address itself: a key that does not
 * hash to what was proven names nothing.
 */
export function keyAddressesOf(input: { assetFamily: AssetFamily; address: string; signerKey?: Uint8Array | undefined }): KeyAddress[] {
  const { signerKey } = input;
  if (signerKey === undefined) return [];
  try {
    const addresses =
      input.assetFamily === "bitcoin"
        ? bitcoinSignerAddresses(input.address, signerKey)
        : input.assetFamily === "ethereum" || input.assetFamily === "tron"
          ? secp256k1KeyAddresses(signerKey)
          : [];
    return provesItsOwn(addresses, input) ? addresses : [];
  } catch {
    // A key that is no curve point here reveals nothing more; screening goes on with the proven address alone.
    return [];
  }
}

function bitcoinSignerAddresses(proven: string, signerKey: Uint8Array): KeyAddress[] {
  const address = parseBitcoinAddress(proven);
  if (!address.ok) return [];
  const point = secp256k1.Point.fromBytes(signerKey);
  const siblings = bitcoinKeyAddresses(point.toBytes(true), address.network);
  // A legacy signature by the uncompressed key (BIP-137 headers 27-30): that key's P2PKH address is one more the key controls, and the proven one.
  if (signerKey.length === 65)
    siblings.unshift({
      form: "P2PKH",
      family: "bitcoin",
      address: base58check.encode(Uint8Array.of(bitcoinPrefixes[address.network].p2pkh, ...hash160(point.toBytes(false)))),
    });
  return siblings;
}

function provesItsOwn(addresses: readonly KeyAddress[], input: { assetFamily: AssetFamily; address: string }): boolean {
  const proven = input.assetFamily === "ethereum" || /^(bc|tb|bcrt)1/i.test(input.address) ? input.address.toLowerCase() : input.address;
  return addresses.some(
    (sibling) => (input.assetFamily === "ethereum" || sibling.form === "P2WPKH" ? sibling.address.toLowerCase() : sibling.address) === proven,
  );
}

import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bech32 } from "@scure/base";
import {
  ethereumAddressOf,
  p2pkhAddress,
  p2shP2wpkhAddress,
  p2wpkhAddress,
  publicKeyOf,
  signBip322PublicKeyHash,
  signBip322Taproot,
  signLegacy,
  signPersonalMessage,
  signTronMessage,
  taprootKeyPair,
  p2trAddress,
  testSecretKey,
  tronAddressOf,
} from "@compliance-graph/test-kit";
import { describe, expect, it } from "vitest";
import { keyAddressesOf, verifyOwnershipSignature } from "../../src/ownership/index.js";

const message = "I control this address for proof 7 of the sibling test.";
const key = testSecretKey("sibling addresses");
const other = testSecretKey("someone else");
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`;
/** The BNB Beacon Chain address as Binance's SDK derives it: bech32 "bnb" over RIPEMD160(SHA256(compressed key)). */
const beaconAddressOf = (secret: Uint8Array) => bech32.encode("bnb", bech32.toWords(ripemd160(sha256(publicKeyOf(secret)))));

/** The test kit derives each address with its own code, so these expectations do not lean on the module under test. */
const bitcoinSiblings = (secret: Uint8Array) => [
  { form: "P2PKH", family: "bitcoin", address: p2pkhAddress(publicKeyOf(secret)) },
  { form: "P2WPKH", family: "bitcoin", address: p2wpkhAddress(publicKeyOf(secret)) },
  { form: "P2SH_P2WPKH", family: "bitcoin", address: p2shP2wpkhAddress(publicKeyOf(secret)) },
];
const secp256k1Siblings = (secret: Uint8Array) => [
  { form: "EVM", family: "ethereum", address: ethereumAddressOf(secret) },
  { form: "TRON", family: "tron", address: tronAddressOf(secret) },
  { form: "BNB_BEACON", family: "bnb-beacon", address: beaconAddressOf(secret) },
];

/** As acceptance calls it: the key is the one the verifier recovered or read from the signature, handed on in its `ok` result. */
function keyAddressesOfVerified(proof: { assetFamily: "bitcoin" | "ethereum" | "tron" | "solana"; address: string; message: string; signature: string }) {
  const verification = verifyOwnershipSignature(proof);
  expect(verification.ok, proof.address).toBe(true);
  return keyAddressesOf({ ...proof, signerKey: verification.ok ? verification.signerKey : undefined });
}

describe("the addresses a signature's key controls", () => {
  it("gives P2PKH, P2WPKH and P2SH-P2WPKH for the key behind any of them, from a legacy or a BIP-322 signature", () => {
    const cases = [
      { address: p2pkhAddress(publicKeyOf(key)), signature: signLegacy(key, message, 31) },
      { address: p2wpkhAddress(publicKeyOf(key)), signature: signLegacy(key, message, 39) },
      { address: p2shP2wpkhAddress(publicKeyOf(key)), signature: signLegacy(key, message, 35) },
      { address: p2wpkhAddress(publicKeyOf(key)), signature: signBip322PublicKeyHash(key, p2wpkhAddress(publicKeyOf(key)), message) },
      { address: p2shP2wpkhAddress(publicKeyOf(key)), signature: signBip322PublicKeyHash(key, p2shP2wpkhAddress(publicKeyOf(key)), message) },
    ];
    for (const input of cases) {
      expect(keyAddressesOfVerified({ assetFamily: "bitcoin", message, ...input }), input.address).toEqual(bitcoinSiblings(key));
    }
  });

  it("adds the uncompressed key's own P2PKH address when the signature was made with it", () => {
    const uncompressed = p2pkhAddress(publicKeyOf(key, false));
    const proof = { assetFamily: "bitcoin" as const, address: uncompressed, message, signature: signLegacy(key, message, 27) };
    expect(keyAddressesOfVerified(proof)).toEqual([{ form: "P2PKH", family: "bitcoin", address: uncompressed }, ...bitcoinSiblings(key)]);
  });

  it("gives the EVM, TRON and BNB Beacon Chain addresses of the secp256k1 key behind an Ethereum or a TRON signature", () => {
    expect(
      keyAddressesOfVerified({
        assetFamily: "ethereum",
        address: ethereumAddressOf(key).toLowerCase(),
        message,
        signature: hex(signPersonalMessage(key, message)),
      }),
    ).toEqual(secp256k1Siblings(key));
    expect(keyAddressesOfVerified({ assetFamily: "tron", address: tronAddressOf(key), message, signature: hex(signTronMessage(key, message)) })).toEqual(
      secp256k1Siblings(key),
    );
  });

  it("takes the key the verifier recovered or read, once: the verifier hands on the signer's own key", () => {
    const verified = (proof: Parameters<typeof verifyOwnershipSignature>[0]) => {
      const verification = verifyOwnershipSignature(proof);
      return verification.ok ? verification.signerKey : undefined;
    };
    expect(verified({ assetFamily: "ethereum", address: ethereumAddressOf(key), message, signature: hex(signPersonalMessage(key, message)) })).toEqual(
      publicKeyOf(key, false),
    );
    expect(verified({ assetFamily: "tron", address: tronAddressOf(key), message, signature: hex(signTronMessage(key, message)) })).toEqual(
      publicKeyOf(key, false),
    );
    expect(verified({ assetFamily: "bitcoin", address: p2wpkhAddress(publicKeyOf(key)), message, signature: signLegacy(key, message, 39) })).toEqual(
      publicKeyOf(key),
    );
    const p2wpkh = p2wpkhAddress(publicKeyOf(key));
    expect(verified({ assetFamily: "bitcoin", address: p2wpkh, message, signature: signBip322PublicKeyHash(key, p2wpkh, message) })).toEqual(publicKeyOf(key));
    const { outputKey } = taprootKeyPair(key);
    expect(verified({ assetFamily: "bitcoin", address: p2trAddress(outputKey), message, signature: signBip322Taproot(key, message) })).toBeUndefined();
  });

  it("names nothing where the signature reveals no key (Taproot) or the key is not the proven address's", () => {
    const { outputKey } = taprootKeyPair(key);
    expect(keyAddressesOfVerified({ assetFamily: "bitcoin", address: p2trAddress(outputKey), message, signature: signBip322Taproot(key, message) })).toEqual(
      [],
    );
    // Someone else's key handed in for this address: it does not hash to the proven address, so it names nothing.
    expect(keyAddressesOf({ assetFamily: "ethereum", address: ethereumAddressOf(key), signerKey: publicKeyOf(other, false) })).toEqual([]);
    expect(keyAddressesOf({ assetFamily: "tron", address: tronAddressOf(key), signerKey: publicKeyOf(other) })).toEqual([]);
    expect(keyAddressesOf({ assetFamily: "bitcoin", address: p2wpkhAddress(publicKeyOf(key)), signerKey: publicKeyOf(other) })).toEqual([]);
    expect(keyAddressesOf({ assetFamily: "solana", address: "11111111111111111111111111111111", signerKey: publicKeyOf(key) })).toEqual([]);
    expect(keyAddressesOf({ assetFamily: "ethereum", address: ethereumAddressOf(key), signerKey: Uint8Array.of(1, 2, 3) })).toEqual([]);
    expect(keyAddressesOf({ assetFamily: "ethereum", address: ethereumAddressOf(key) })).toEqual([]);
  });
});

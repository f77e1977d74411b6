import { bytesToHex } from "@noble/hashes/utils.js";
import { base58 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { addressMatchesFormat, verifyOwnershipSignature, type OwnershipSignatureInput } from "../../src/ownership/index.js";
import {
  ethereumAddressOf,
  p2pkhAddress,
  p2wpkhAddress,
  publicKeyOf,
  signBip322PublicKeyHash,
  signLegacy,
  signPersonalMessage,
  signSolanaMessage,
  signTronMessage,
  solanaAddressOf,
  testSecretKey,
  tronAddressOf,
} from "@compliance-graph/test-kit";

const message = "AOPP proof request 3f9c: I, customer 1207, control this address.";
const secret = testSecretKey("entry point");
const segwitAddress = p2wpkhAddress(publicKeyOf(secret));
const legacyAddress = p2pkhAddress(publicKeyOf(secret));
const ethereumAddress = ethereumAddressOf(secret);
const ethereumSignature = (text: string) => "0x" + bytesToHex(signPersonalMessage(secret, text));

describe("verifyOwnershipSignature", () => {
  it("verifies Bitcoin proofs and reports the address format and scheme", () => {
    const bip322: OwnershipSignatureInput = {
      assetFamily: "bitcoin",
      address: segwitAddress,
      message,
      signature: signBip322PublicKeyHash(secret, segwitAddress, message),
    };
    expect(verifyOwnershipSignature(bip322)).toEqual({ ok: true, format: "P2WPKH", scheme: "bip322-simple", signerKey: expect.any(Uint8Array) });
    expect(verifyOwnershipSignature({ ...bip322, expectedFormat: "P2WPKH", network: "mainnet" })).toMatchObject({ ok: true });
    const legacy = { assetFamily: "bitcoin", address: legacyAddress, message, signature: signLegacy(secret, message, 31) } as const;
    expect(verifyOwnershipSignature({ ...legacy, expectedFormat: null })).toEqual({
      ok: true,
      format: "P2PKH",
      scheme: "legacy",
      signerKey: expect.any(Uint8Array),
    });
  });

  it("verifies Ethereum proofs with the standard (null) format", () => {
    const input = { assetFamily: "ethereum", address: ethereumAddress, message, signature: ethereumSignature(message) } as const;
    expect(verifyOwnershipSignature(input)).toEqual({ ok: true, format: null, scheme: "eip191", signerKey: expect.any(Uint8Array) });
    expect(verifyOwnershipSignature({ ...input, expectedFormat: null, network: "mainnet" })).toMatchObject({ ok: true });
  });

  it("verifies Solana (ed25519) and TRON (TIP-191) proofs with the standard (null) format", () => {
    const solana = { assetFamily: "solana", address: solanaAddressOf(secret), message, signature: base58.encode(signSolanaMessage(secret, message)) } as const;
    expect(verifyOwnershipSignature(solana)).toEqual({ ok: true, format: null, scheme: "ed25519" });
    const tron = { assetFamily: "tron", address: tronAddressOf(secret), message, signature: bytesToHex(signTronMessage(secret, message)) } as const;
    expect(verifyOwnershipSignature(tron)).toEqual({ ok: true, format: null, scheme: "tip191", signerKey: expect.any(Uint8Array) });
    expect(verifyOwnershipSignature({ ...tron, expectedFormat: "P2PKH" })).toEqual({
      ok: false,
      code: "FORMAT_MISMATCH",
      reason: "TRON addresses have no P2PKH format; request the standard format (null).",
    });
  });

  it("refuses each network's address under another family, and a family it cannot verify", () => {
    const signature = bytesToHex(signTronMessage(secret, message));
    expect(verifyOwnershipSignature({ assetFamily: "tron", address: ethereumAddress, message, signature })).toMatchObject({ code: "INVALID_ADDRESS" });
    expect(verifyOwnershipSignature({ assetFamily: "ethereum", address: tronAddressOf(secret), message, signature })).toMatchObject({
      code: "INVALID_ADDRESS",
    });
    expect(verifyOwnershipSignature({ assetFamily: "solana", address: tronAddressOf(secret), message, signature })).toMatchObject({ code: "INVALID_ADDRESS" });
    const lightning = { assetFamily: "lightning", address: "02" + "ab".repeat(32), message, signature } as unknown as OwnershipSignatureInput;
    expect(verifyOwnershipSignature(lightning)).toEqual({
      ok: false,
      code: "INVALID_ADDRESS",
      reason: "Only Bitcoin, Ethereum (and EVM), Solana and TRON addresses are supported.",
    });
  });

  it("refuses an address of another format or network than the proof request asked for", () => {
    const signature = signBip322PublicKeyHash(secret, segwitAddress, message);
    const base = { assetFamily: "bitcoin", address: segwitAddress, message, signature } as const;
    expect(verifyOwnershipSignature({ ...base, expectedFormat: "P2TR" })).toEqual({
      ok: false,
      code: "FORMAT_MISMATCH",
      reason: "The address is a P2WPKH address, but a P2TR address was requested.",
    });
    expect(verifyOwnershipSignature({ ...base, network: "testnet" })).toMatchObject({ code: "FORMAT_MISMATCH" });
    const ethereum = { assetFamily: "ethereum", address: ethereumAddress, message, signature: ethereumSignature(message) } as const;
    expect(verifyOwnershipSignature({ ...ethereum, expectedFormat: "P2PKH" })).toMatchObject({ code: "FORMAT_MISMATCH" });
  });

  it("refuses an address of the other asset family", () => {
    const signature = ethereumSignature(message);
    const bitcoinWithEthereumAddress = { assetFamily: "bitcoin", address: ethereumAddress, message, signature } as const;
    const ethereumWithBitcoinAddress = { assetFamily: "ethereum", address: segwitAddress, message, signature } as const;
    expect(verifyOwnershipSignature(bitcoinWithEthereumAddress)).toMatchObject({ code: "INVALID_ADDRESS" });
    expect(verifyOwnershipSignature(ethereumWithBitcoinAddress)).toMatchObject({ code: "INVALID_ADDRESS" });
  });

  it("answers malformed input with a sentence, never by throwing", () => {
    const odd = [
      { assetFamily: "bitcoin", address: segwitAddress, message, signature: undefined },
      { assetFamily: "bitcoin", address: undefined, message, signature: "AAAA" },
      { assetFamily: "ethereum", address: ethereumAddress, message: undefined, signature: ethereumSignature(message) },
      { assetFamily: "solana", address: "x", message, signature: "y" },
      { assetFamily: "bitcoin", address: segwitAddress, message, signature: "A".repeat(1_000_000) },
    ] as unknown as OwnershipSignatureInput[];
    for (const input of odd) {
      const result = verifyOwnershipSignature(input);
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.reason).toMatch(/^[A-Z].*\.$/);
      expect(result.reason).not.toMatch(/Error|at \w+ \(|\n/);
    }
  });
});

describe("addressMatchesFormat", () => {
  it.each([
    ["bitcoin", "1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH", "P2PKH", undefined, true],
    ["bitcoin", "1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH", "P2WPKH", undefined, false],
    ["bitcoin", "3JvL6Ymt8MVWiCNHC7oWU6nLeHNJKLZGLN", "P2SH", "mainnet", true],
    ["bitcoin", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", null, null, true],
    ["bitcoin", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "P2WPKH", "testnet", false],
    ["bitcoin", "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", "P2WSH", "testnet", true],
    ["bitcoin", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0", "P2TR", "mainnet", true],
    ["bitcoin", "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", "P2PKH", "regtest", true], // base58 testnet bytes are regtest's too
    ["bitcoin", "bcrt1q9vza2e8x573nczrlzms0wvx3gsqjx7vay85cr9", "P2WPKH", "testnet", false],
    ["bitcoin", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5", null, null, false],
    ["ethereum", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", null, null, true],
    ["ethereum", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "P2PKH", null, false],
    ["ethereum", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", null, null, false],
  ] as const)("%s %s as %s on %s: %s", (assetFamily, address, format, network, expected) => {
    expect(addressMatchesFormat({ assetFamily, address, format, network })).toBe(expected);
  });
});

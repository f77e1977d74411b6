import { bytesToHex } from "@noble/hashes/utils.js";
import { describe, expect, it } from "vitest";
import { parseBitcoinAddress } from "../../src/ownership/index.js";

/** Valid segwit addresses and their scriptPubKeys, from BIP-350 "Test vectors for v0-v16 native segregated witness addresses". */
const bip350Valid = [
  ["BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", "mainnet", "P2WPKH", "0014751e76e8199196d454941c45d1b3a323f1433bd6"],
  [
    "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7",
    "testnet",
    "P2WSH",
    "00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262",
  ],
  [
    "tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy",
    "testnet",
    "P2WSH",
    "0020000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433",
  ],
  ["tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c", "testnet", "P2TR", "5120000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433"],
  ["bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0", "mainnet", "P2TR", "512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"],
] as const;

/** Valid per BIP-350 but not one of the five formats a proof request can name. */
const bip350ValidButUnsupported = [
  "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y", // v1, 40 bytes
  "BC1SW50QGDZ25J", // v16, 2 bytes
  "bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs", // v2, 16 bytes
];

/** BIP-350 "invalid segwit addresses", each with the reason the BIP gives. */
const bip350Invalid = [
  "tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut", // invalid human-readable part
  "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd", // bech32 instead of bech32m
  "tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf", // bech32 instead of bech32m
  "BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL", // bech32 instead of bech32m
  "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh", // bech32m instead of bech32
  "tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47", // bech32m instead of bech32
  "bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4", // invalid character in checksum
  "BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R", // invalid witness version
  "bc1pw5dgrnzv", // program of 1 byte
  "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav", // program of 41 bytes
  "BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P", // v0 program of 16 bytes
  "tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq", // mixed case
  "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf", // zero padding of more than 4 bits
  "tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j", // non-zero padding
  "bc1gmk9yu", // empty data section
];

describe("parseBitcoinAddress", () => {
  it.each(bip350Valid)("reads the BIP-350 vector %s", (address, network, format, scriptPubKey) => {
    const parsed = parseBitcoinAddress(address);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.network).toBe(network);
    expect(parsed.format).toBe(format);
    expect(bytesToHex(parsed.scriptPubKey)).toBe(scriptPubKey);
    expect(bytesToHex(parsed.program)).toBe(scriptPubKey.slice(4));
  });

  it.each(bip350ValidButUnsupported)("refuses %s, a valid segwit address of no supported format", (address) => {
    const parsed = parseBitcoinAddress(address);
    expect(parsed).toMatchObject({ ok: false, code: "INVALID_ADDRESS" });
  });

  it.each(bip350Invalid)("refuses the BIP-350 invalid vector %s", (address) => {
    expect(parseBitcoinAddress(address)).toMatchObject({ ok: false, code: "INVALID_ADDRESS" });
  });

  it("names the failure of the invalid vectors in words", () => {
    expect(parseBitcoinAddress("tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq")).toMatchObject({
      reason: expect.stringContaining("mixes upper and lower case"),
    });
    expect(parseBitcoinAddress("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd")).toMatchObject({
      reason: expect.stringContaining("bech32 checksum instead of bech32m"),
    });
    expect(parseBitcoinAddress("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh")).toMatchObject({
      reason: expect.stringContaining("carries a bech32m checksum"),
    });
    expect(parseBitcoinAddress("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5")).toMatchObject({
      reason: expect.stringContaining("checksum is wrong"),
    });
  });

  it("reads regtest addresses (bcrt) of the BIP-322 test key", () => {
    const parsed = parseBitcoinAddress("bcrt1q9vza2e8x573nczrlzms0wvx3gsqjx7vay85cr9");
    expect(parsed).toMatchObject({ ok: true, network: "regtest", format: "P2WPKH", encoding: "bech32" });
  });

  // The generator point's compressed key: its P2PKH address and the BIP-350 P2WPKH vector share one hash.
  it("reads base58check P2PKH and P2SH addresses on both networks", () => {
    const cases = [
      ["1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH", "mainnet", "P2PKH", "76a914751e76e8199196d454941c45d1b3a323f1433bd688ac"],
      ["3JvL6Ymt8MVWiCNHC7oWU6nLeHNJKLZGLN", "mainnet", "P2SH", undefined],
      ["mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", "testnet", "P2PKH", undefined],
      ["2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD2", "testnet", "P2SH", "a914336caa13e08b96080a32b5d818d59b4ab3b3674287"],
    ] as const;
    for (const [address, network, format, scriptPubKey] of cases) {
      const parsed = parseBitcoinAddress(address);
      expect(parsed).toMatchObject({ ok: true, network, format, encoding: "base58check" });
      if (parsed.ok && scriptPubKey) expect(bytesToHex(parsed.scriptPubKey)).toBe(scriptPubKey);
    }
  });

  it("refuses base58 addresses with a wrong checksum, foreign version, bad characters or length", () => {
    const cases = [
      ["1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMJ", "checksum is wrong"],
      ["LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9", "not a Bitcoin P2PKH or P2SH address"], // Litecoin, version 0x30
      ["1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAM0", "characters that are not allowed"],
      ["1BgGZ9tcN4rm9KBzDn7Kpr", "wrong length"],
      ["", "empty"],
    ] as const;
    for (const [address, reason] of cases) {
      expect(parseBitcoinAddress(address)).toMatchObject({ ok: false, code: "INVALID_ADDRESS", reason: expect.stringContaining(reason) });
    }
  });
});

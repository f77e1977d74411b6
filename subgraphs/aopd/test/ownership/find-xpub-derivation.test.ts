import { sha256 } from "@noble/hashes/sha2.js";
import { createBase58check } from "@scure/base";
import { describe, expect, it } from "vitest";
import { findXpubDerivation, OwnershipInputError, parseExtendedPublicKey } from "../../src/ownership/index.js";

const base58check = createBase58check(sha256);

/** SLIP-0132 "Bitcoin Test Vectors" (mnemonic "abandon ... about"): account keys and their m/0/0 addresses. */
const slip132 = {
  xpub: "xpub6BosfCnifzxcFwrSzQiqu2DBVTshkCXacvNsWGYJVVhhawA7d4R5WSWGFNbi8Aw6ZRc1brxMyWMzG3DSSSSoekkudhUd9yLb6qx39T9nMdj",
  xpubAddress: "1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA",
  ypub: "ypub6Ww3ibxVfGzLrAH1PNcjyAWenMTbbAosGNB6VvmSEgytSER9azLDWCxoJwW7Ke7icmizBMXrzBx9979FfaHxHcrArf3zbeJJJUZPf663zsP",
  ypubAddress: "37VucYSaXLCAsxYyAPfbSi9eh4iEcbShgf",
  zpub: "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs",
  zpubAddress: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
  xprv: "xprv9xpXFhFpqdQK3TmytPBqXtGSwS3DLjojFhTGht8gwAAii8py5X6pxeBnQ6ehJiyJ6nDjWGJfZ95WxByFXVkDxHXrqu53WCRGypk2ttuqncb",
};

/** BIP-84 "Test vectors": the second receive and first change address of the same zpub. */
const bip84 = { receive1: "bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g", change0: "bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el" };

/** BIP-86 "Test vectors": account xpub of m/86'/0'/0' and its Taproot addresses. */
const bip86 = {
  xpub: "xpub6BgBgsespWvERF3LHQu6CnqdvfEvtMcQjYrcRzx53QJjSxarj2afYWcLteoGVky7D3UKDP9QyrLprQ3VCECoY49yfdDEHGCtMMj92pReUsQ",
  receive0: "bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr",
  receive1: "bc1p4qhjn9zdvkux4e44uhx8tc55attvtyu358kutcqkudyccelu0was9fqzwh",
  change0: "bc1p3qkhfews2uk44qtvauqyr2ttdsw7svhkl9nkm9s9c3x4ax5h60wqwruhk7",
};

/** BIP-49 "Test vectors" (testnet): account upub of m/49'/1'/0' and its first address. */
const bip49 = {
  upub: "upub5EFU65HtV5TeiSHmZZm7FUffBGy8UKeqp7vw43jYbvZPpoVsgU93oac7Wk3u6moKegAEWtGNF8DehrnHtv21XXEMYRUocHqguyjknFHYfgY",
  address: "2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD2",
};

/** The same key under other SLIP-132 version bytes, as a wallet exporting another prefix would write it. */
function withVersion(extendedKey: string, version: number): string {
  const payload = base58check.decode(extendedKey);
  new DataView(payload.buffer, payload.byteOffset).setUint32(0, version, false);
  return base58check.encode(payload);
}

const versions = { xpub: 0x0488b21e, ypub: 0x049d7cb2, zpub: 0x04b24746, tpub: 0x043587cf, vpub: 0x045f1cf6, Zpub: 0x02aa7ed3 };

describe("findXpubDerivation", () => {
  it.each([
    ["xpub", slip132.xpub, slip132.xpubAddress],
    ["ypub", slip132.ypub, slip132.ypubAddress],
    ["zpub", slip132.zpub, slip132.zpubAddress],
    ["BIP-86 xpub", bip86.xpub, bip86.receive0],
    ["BIP-49 upub", bip49.upub, bip49.address],
  ])("finds the published first address of the %s at m/0/0", (_, xpub, address) => {
    expect(findXpubDerivation({ xpub, address })).toEqual({ chain: 0, index: 0 });
  });

  it("finds later receive addresses and change addresses", () => {
    expect(findXpubDerivation({ xpub: slip132.zpub, address: bip84.receive1 })).toEqual({ chain: 0, index: 1 });
    expect(findXpubDerivation({ xpub: slip132.zpub, address: bip84.change0 })).toEqual({ chain: 1, index: 0 });
    expect(findXpubDerivation({ xpub: bip86.xpub, address: bip86.receive1 })).toEqual({ chain: 0, index: 1 });
    expect(findXpubDerivation({ xpub: bip86.xpub, address: bip86.change0 })).toEqual({ chain: 1, index: 0 });
  });

  it("tries every single-key form for a plain xpub", () => {
    const asXpub = (key: string) => withVersion(key, versions.xpub);
    expect(findXpubDerivation({ xpub: asXpub(slip132.ypub), address: slip132.ypubAddress })).toEqual({ chain: 0, index: 0 });
    expect(findXpubDerivation({ xpub: asXpub(slip132.zpub), address: slip132.zpubAddress })).toEqual({ chain: 0, index: 0 });
  });

  it("keeps ypub and zpub to the one form their version names", () => {
    const maxIndex = 5;
    expect(findXpubDerivation({ xpub: withVersion(slip132.zpub, versions.ypub), address: slip132.zpubAddress, maxIndex })).toBeUndefined();
    expect(findXpubDerivation({ xpub: withVersion(slip132.ypub, versions.zpub), address: slip132.ypubAddress, maxIndex })).toBeUndefined();
    expect(findXpubDerivation({ xpub: slip132.zpub, address: bip86.receive0, maxIndex })).toBeUndefined();
  });

  it("does not match across networks", () => {
    const vpub = withVersion(slip132.zpub, versions.vpub);
    expect(findXpubDerivation({ xpub: vpub, address: slip132.zpubAddress, maxIndex: 5 })).toBeUndefined();
    expect(findXpubDerivation({ xpub: bip49.upub, address: slip132.ypubAddress, maxIndex: 5 })).toBeUndefined();
  });

  it("searches no further than maxIndex, inclusive", () => {
    expect(findXpubDerivation({ xpub: slip132.zpub, address: bip84.receive1, maxIndex: 0 })).toBeUndefined();
    expect(findXpubDerivation({ xpub: slip132.zpub, address: bip84.receive1, maxIndex: 1 })).toEqual({ chain: 0, index: 1 });
    expect(() => findXpubDerivation({ xpub: slip132.zpub, address: bip84.receive1, maxIndex: -1 })).toThrow(RangeError);
    expect(() => findXpubDerivation({ xpub: slip132.zpub, address: bip84.receive1, maxIndex: 1.5 })).toThrow(RangeError);
  });

  it("returns undefined for an address of another wallet and for P2WSH", () => {
    expect(findXpubDerivation({ xpub: slip132.zpub, address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", maxIndex: 20 })).toBeUndefined();
    expect(findXpubDerivation({ xpub: slip132.xpub, address: "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3", maxIndex: 20 })).toBeUndefined();
  });

  it("rejects unreadable extended keys with a reason and a stable code", () => {
    const cases = [
      [slip132.zpub.slice(0, -1) + "t", "base58check"],
      ["xpub-not-a-key", "111 characters"],
      [withVersion(slip132.xpub, 0x12345678), "not a Bitcoin xpub"],
      [withVersion(slip132.xpub, versions.Zpub), "Multi-signature"],
    ] as const;
    for (const [xpub, reason] of cases) {
      const error = captureError(() => findXpubDerivation({ xpub, address: slip132.xpubAddress }));
      expect(error).toBeInstanceOf(OwnershipInputError);
      expect(error).toMatchObject({ code: "INVALID_EXTENDED_KEY", message: expect.stringContaining(reason) });
    }
  });

  it("rejects an invalid address with INVALID_ADDRESS", () => {
    const error = captureError(() => findXpubDerivation({ xpub: slip132.xpub, address: "1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabB" }));
    expect(error).toMatchObject({ code: "INVALID_ADDRESS", message: expect.stringContaining("checksum") });
  });

  it("reads the network and forms from the version bytes", () => {
    expect(parseExtendedPublicKey(withVersion(slip132.xpub, versions.tpub))).toMatchObject({
      ok: true,
      network: "testnet",
      forms: ["P2PKH", "P2SH-P2WPKH", "P2WPKH", "P2TR"],
    });
    expect(parseExtendedPublicKey(bip49.upub)).toMatchObject({ ok: true, network: "testnet", forms: ["P2SH-P2WPKH"] });
  });

  it("refuses an extended private key without repeating it", () => {
    const result = parseExtendedPublicKey(slip132.xprv);
    expect(result).toMatchObject({ ok: false, code: "INVALID_EXTENDED_KEY", reason: expect.stringContaining("private key") });
    expect(JSON.stringify(result)).not.toContain(slip132.xprv.slice(4, 20));
  });
});

function captureError(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

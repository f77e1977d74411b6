import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AssetRegistry } from "@compliance-graph/dti-assets";
import { readSanctionsList } from "@compliance-graph/sanctions-lists";
import {
  ethereumAddressOf,
  p2pkhAddress,
  p2wpkhAddress,
  publicKeyOf,
  signBip322PublicKeyHash,
  signPersonalMessage,
  signTronMessage,
  testSecretKey,
  tronAddressOf,
} from "@compliance-graph/test-kit";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bech32 } from "@scure/base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importSanctionsList } from "../../src/screening/import-sanctions-list.js";
import { postJson, requestSignatureProof } from "../support/portal-client.js";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

const bitcoin = "DTI4H95J0R2X";
const ether = "DTIX9J9K872S";
const tron = "DTI993D8X1FB";
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`;
const bitcoinKey = testSecretKey("sibling: listed under its P2PKH address, proven with its P2WPKH address");
const evmKey = testSecretKey("sibling: listed under its Ethereum address, proven with its TRON address");
const beaconKey = testSecretKey("sibling: listed under its BNB Beacon Chain address, proven on Ethereum");
const listedP2pkh = p2pkhAddress(publicKeyOf(bitcoinKey));
const listedEvm = ethereumAddressOf(evmKey);
const listedBeacon = bech32.encode("bnb", bech32.toWords(ripemd160(sha256(publicKeyOf(beaconKey)))));

const screeningFields = "screening { status listVersion matchedForm matchedAddress matchedEntry { asset address } }";

/**
 * A list version written by the test: per-asset text lists in a dated folder, as OFAC's extractor
 * publishes them, naming only the given addresses (and one bystander, so that no file is empty).
 */
function writeListVersion(root: string, date: string, lists: Record<string, string[]>): string {
  const folder = join(root, `ofac-${date}`);
  mkdirSync(folder);
  for (const [asset, addresses] of Object.entries({ XMR: ["4bystander"], ...lists }))
    writeFileSync(join(folder, `sanctioned_addresses_${asset}.txt`), `${addresses.join("\n")}\n`);
  return folder;
}

describe.each(databaseDrivers)("screening every address a signature's key controls, on %s", (driver) => {
  let aopd: TestAopd;
  let root: string;
  const registry = AssetRegistry.load();
  const importList = async (date: string, lists: Record<string, string[]>) =>
    importSanctionsList(aopd.services.db, registry, await readSanctionsList([writeListVersion(root, date, lists)]));
  const screeningOf = async (id: string) => {
    const { body } = await aopd.query(`query($id: ID!) { aopd { proof(id: $id) { status ${screeningFields} } } }`, { id });
    expect(body.errors).toBeUndefined();
    return (body.data!.aopd as { proof: { status: string; screening: Record<string, unknown> } }).proof;
  };
  const proveWith = async (asset: string, address: string, sign: (message: string) => string) => {
    const request = await requestSignatureProof(aopd, { asset, customerId: "siblings" });
    const accepted = await postJson(aopd, `${request.token}/signature`, { address, signature: sign(request.proof.message) });
    expect(accepted.status).toBe(200);
    return request.proof.id;
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "sanc-siblings-"));
    aopd = await startTestAopd(driver, { loadBundledSanctionsList: false });
    await importList("2030-01-01", { XBT: [listedP2pkh], ETH: [listedEvm], BNB: [listedBeacon] });
    // Starting aopd migrates a fresh database: minutes on a loaded machine with PGlite.
  }, 300_000);
  afterAll(async () => {
    await aopd?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("lists a proof whose key's other address is listed, and says which form matched", async () => {
    const segwit = p2wpkhAddress(publicKeyOf(bitcoinKey));
    const bitcoinProof = await proveWith(bitcoin, segwit, (message) => signBip322PublicKeyHash(bitcoinKey, segwit, message));
    expect(await screeningOf(bitcoinProof)).toEqual({
      status: "VERIFIED",
      screening: {
        status: "LISTED",
        listVersion: "2030-01-01",
        matchedForm: "P2PKH",
        matchedAddress: listedP2pkh,
        matchedEntry: { asset: "XBT", address: listedP2pkh },
      },
    });

    const tronProof = await proveWith(tron, tronAddressOf(evmKey), (message) => hex(signTronMessage(evmKey, message)));
    expect((await screeningOf(tronProof)).screening).toEqual({
      status: "LISTED",
      listVersion: "2030-01-01",
      matchedForm: "EVM",
      matchedAddress: listedEvm,
      matchedEntry: { asset: "ETH", address: listedEvm },
    });

    const beaconProof = await proveWith(ether, ethereumAddressOf(beaconKey), (message) => hex(signPersonalMessage(beaconKey, message)));
    expect((await screeningOf(beaconProof)).screening).toEqual({
      status: "LISTED",
      listVersion: "2030-01-01",
      matchedForm: "BNB_BEACON",
      matchedAddress: listedBeacon,
      matchedEntry: { asset: "BNB", address: listedBeacon },
    });

    // The listed address proven itself matches as the proven address; a key with nothing listed is CLEAR.
    const direct = await proveWith(ether, listedEvm, (message) => hex(signPersonalMessage(evmKey, message)));
    expect((await screeningOf(direct)).screening).toMatchObject({ status: "LISTED", matchedForm: "PROVEN_ADDRESS", matchedAddress: listedEvm });
    const unlisted = testSecretKey("sibling: nothing of this key is listed");
    const clear = await proveWith(ether, ethereumAddressOf(unlisted), (message) => hex(signPersonalMessage(unlisted, message)));
    expect((await screeningOf(clear)).screening).toEqual({
      status: "CLEAR",
      listVersion: "2030-01-01",
      matchedForm: null,
      matchedAddress: null,
      matchedEntry: null,
    });

    // A newer version screens the siblings again: delisting the P2PKH address clears the P2WPKH proof, listing it again lists it.
    const delisting = await importList("2030-02-01", { ETH: [listedEvm], BNB: [listedBeacon] });
    expect(delisting.changes).toEqual([{ proofId: bitcoinProof, from: "LISTED", to: "CLEAR" }]);
    expect((await screeningOf(bitcoinProof)).screening).toMatchObject({ status: "CLEAR", matchedForm: null });
    // (One more entry than the first version, which the same content would repeat: an import of a known version changes nothing.)
    const relisting = await importList("2030-03-01", { XBT: [listedP2pkh], ETH: [listedEvm], BNB: [listedBeacon], LTC: ["Lbystander"] });
    expect(relisting.changes).toEqual([{ proofId: bitcoinProof, from: "CLEAR", to: "LISTED" }]);
    expect((await screeningOf(bitcoinProof)).screening).toMatchObject({
      status: "LISTED",
      listVersion: "2030-03-01",
      matchedForm: "P2PKH",
      matchedAddress: listedP2pkh,
    });
  });
});

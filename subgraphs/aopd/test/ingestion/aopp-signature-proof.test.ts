import { HDKey } from "@scure/bip32";
import { base64 } from "@scure/base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { p2wpkhAddress, publicKeyOf, signBip322PublicKeyHash, signLegacy, testSecretKey } from "../ownership/bitcoin-test-wallet.js";
import { ethereumAddressOf, signPersonalMessage } from "../ownership/ethereum-test-wallet.js";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

const bitcoin = "DTI4H95J0R2X";
const ether = "DTIX9J9K872S";
const bitcoinKey = testSecretKey("ingestion bitcoin");
const bitcoinAddress = p2wpkhAddress(publicKeyOf(bitcoinKey));
const etherKey = testSecretKey("ingestion ether");
const etherAddress = ethereumAddressOf(etherKey);
const personalSign = (message: string) => base64.encode(signPersonalMessage(etherKey, message));

const requestMutation = `mutation($input: AopdRequestAoppProofInput!) { aopd { requestAoppProof(input: $input) {
  aoppUri portalUrl proof { id status address format message xpub dueAt customerId } } } }`;

interface AoppRequest {
  aoppUri: string;
  portalUrl: string;
  proof: { id: string; status: string; address: string; message: string; xpub: string | null; dueAt: string };
}

describe.each(databaseDrivers)("AOPP signature proofs on %s", (driver) => {
  let aopd: TestAopd;
  const request = async (input: Record<string, unknown>) => {
    const { body } = await aopd.query(requestMutation, { input: { customerId: "CUST-1", asset: bitcoin, expectedAddress: bitcoinAddress, ...input } });
    return body;
  };
  const created = async (input: Record<string, unknown> = {}) => {
    const body = await request(input);
    expect(body.errors).toBeUndefined();
    return (body.data!.aopd as { requestAoppProof: AoppRequest }).requestAoppProof;
  };
  const callbackUrl = (aoppUri: string) => new URL(aoppUri.replace(/^aopp:/, "aopp://x")).searchParams.get("callback")!;
  const post = (url: string, body: unknown) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then(async (response) => ({
      status: response.status,
      body: response.status === 204 ? undefined : ((await response.json()) as { error: string; reason?: string }),
    }));
  const statusOf = async (id: string) => {
    const { body } = await aopd.query(`query($id: ID!) { aopd { proof(id: $id) { status ... on AopdSignatureProof { signature xpub } } } }`, { id });
    return (body.data!.aopd as { proof: { status: string; signature: string | null; xpub: string | null } }).proof;
  };

  beforeAll(async () => {
    aopd = await startTestAopd(driver);
    // Wallets reach the callback on the subgraph itself in this test.
    aopd.services.config.callbackBaseUrl = new URL("/aopp/callback", aopd.url).toString();
  });
  afterAll(async () => {
    await aopd?.close();
  });

  it("creates a pending proof with an AOPP URI and a portal URL", async () => {
    const result = await created({ format: "P2WPKH", comment: "onboarding" });
    expect(result.proof).toMatchObject({ status: "PENDING", address: bitcoinAddress, xpub: null });
    expect(result.proof.message).toMatch(/^I confirm that I control bc1q.* for CUST-1\. Nonce: [0-9a-f]{24}$/);
    const uri = new URL(result.aoppUri.replace(/^aopp:/, "aopp://x"));
    expect(result.aoppUri.startsWith("aopp:?v=0&msg=")).toBe(true);
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({ v: "0", msg: result.proof.message, asset: "btc", format: "p2wpkh" });
    expect(callbackUrl(result.aoppUri)).toMatch(/\/aopp\/callback\/[A-Za-z0-9_-]{43}$/);
    expect(new URL(result.portalUrl).searchParams.get("aopp")).toBe(result.aoppUri);
    expect(new Date(result.proof.dueAt).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
  });

  it("verifies a BIP-322 signature posted to the callback, once", async () => {
    const { aoppUri, proof } = await created();
    const signature = signBip322PublicKeyHash(bitcoinKey, bitcoinAddress, proof.message);
    expect(await post(callbackUrl(aoppUri), { version: 0, address: bitcoinAddress, signature })).toEqual({ status: 204, body: undefined });
    expect(await statusOf(proof.id)).toEqual({ status: "VERIFIED", signature, xpub: null });
    const again = await post(callbackUrl(aoppUri), { version: 0, address: bitcoinAddress, signature });
    expect(again).toMatchObject({ status: 409, body: { error: "not_pending" } });
  });

  it("accepts exactly one of fifty concurrent callbacks", async () => {
    const { aoppUri, proof } = await created();
    const signature = signLegacy(bitcoinKey, proof.message, 39);
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(callbackUrl(aoppUri), { version: 0, address: bitcoinAddress, signature })));
    expect(answers.filter((answer) => answer.status === 204)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(49);
    expect((await statusOf(proof.id)).status).toBe("VERIFIED");
  });

  it("refuses bad callbacks with a reason and leaves the proof pending", async () => {
    const { aoppUri, proof } = await created();
    const url = callbackUrl(aoppUri);
    const good = signBip322PublicKeyHash(bitcoinKey, bitcoinAddress, proof.message);
    const otherAddress = p2wpkhAddress(publicKeyOf(testSecretKey("someone else")));
    const cases: [unknown, RegExp][] = [
      ["not an object", /JSON object/],
      [{ version: 1, address: bitcoinAddress, signature: good }, /version 0/],
      [{ version: 0, address: otherAddress, signature: good }, /differs from the address the proof expects/],
      [{ version: 0, address: bitcoinAddress, signature: signBip322PublicKeyHash(bitcoinKey, bitcoinAddress, "another message") }, /./],
      [{ version: 0, address: bitcoinAddress, signature: "bm90IGEgc2lnbmF0dXJl" }, /./],
    ];
    for (const [body, reason] of cases) {
      const answer = await post(url, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body?.reason).toMatch(reason);
    }
    expect((await post(url.replace(/[A-Za-z0-9_-]{43}$/, "A".repeat(43)), { version: 0, address: bitcoinAddress, signature: good })).status).toBe(404);
    expect((await post(`${url}x`, {})).status).toBe(404);
    expect((await fetch(url)).status).toBe(405);
    expect((await statusOf(proof.id)).status).toBe("PENDING");
  });

  it("refuses a callback for an expired proof and leaves it as it is", async () => {
    const { aoppUri, proof } = await created();
    await aopd.services.db.updateTable("aopd_proof").set({ due_at: new Date(Date.now() - 1_000) }).where("id", "=", proof.id).execute();
    const signature = signBip322PublicKeyHash(bitcoinKey, bitcoinAddress, proof.message);
    expect(await post(callbackUrl(aoppUri), { version: 0, address: bitcoinAddress, signature })).toMatchObject({ status: 409 });
    expect((await statusOf(proof.id)).status).toBe("PENDING");
  });

  it("verifies an Ethereum personal_sign signature, comparing addresses without case", async () => {
    const { aoppUri, proof } = await created({ asset: ether, expectedAddress: etherAddress, format: null });
    expect(new URL(aoppUri.replace(/^aopp:/, "aopp://x")).searchParams.get("format")).toBe("standard");
    const answer = await post(callbackUrl(aoppUri), { version: 0, address: etherAddress.toLowerCase(), signature: personalSign(proof.message) });
    expect(answer.status).toBe(204);
    expect((await statusOf(proof.id)).status).toBe("VERIFIED");
  });

  it("ties a proof to an xpub the address derives from, findable by xpub", async () => {
    const account = HDKey.fromMasterSeed(testSecretKey("xpub seed")).derive("m/84'/0'/0'");
    const child = account.deriveChild(1).deriveChild(7);
    const address = p2wpkhAddress(child.publicKey!);
    const xpub = account.publicExtendedKey;
    const { aoppUri, proof } = await created({ expectedAddress: address, xpubRequired: true });
    const signature = signBip322PublicKeyHash(child.privateKey!, address, proof.message);
    const withoutXpub = await post(callbackUrl(aoppUri), { version: 0, address, signature });
    expect(withoutXpub).toMatchObject({ status: 400, body: { reason: "This proof requires the xpub the address derives from." } });
    const foreign = HDKey.fromMasterSeed(testSecretKey("other seed")).derive("m/84'/0'/0'").publicExtendedKey;
    expect((await post(callbackUrl(aoppUri), { version: 0, address, signature, xpub: foreign })).status).toBe(400);
    expect((await post(callbackUrl(aoppUri), { version: 0, address, signature, xpub })).status).toBe(204);
    const { body } = await aopd.query(`query($xpub: String!) { aopd { proofForXpub(xpub: $xpub) { id xpub status }
      proofs(filter: { is: { signature: { xpub: { xpub: { eq: $xpub } } } } }) { id } } }`, { xpub });
    expect(body.data).toEqual({ aopd: { proofForXpub: { id: proof.id, xpub, status: "VERIFIED" }, proofs: [{ id: proof.id }] } });
  });

  it("refuses bad requests with BAD_USER_INPUT naming the field, creating nothing", async () => {
    const before = await aopd.query(`{ aopd { proofsCount } }`);
    const cases: [Record<string, unknown>, string][] = [
      [{ customerId: "  " }, "input.customerId"],
      [{ asset: "DTI20J63Z4N3" }, "input.asset"],
      [{ format: "P2WSH" }, "input.format"],
      [{ format: "P2PKH" }, "input.expectedAddress"],
      [{ expectedAddress: "bc1qnotanaddress" }, "input.expectedAddress"],
      [{ expectedAddress: "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx" }, "input.expectedAddress"],
      [{ message: "x".repeat(1025) }, "input.message"],
      [{ message: "naïve" }, "input.message"],
      [{ asset: ether, expectedAddress: etherAddress, format: "P2WPKH" }, "input.format"],
      [{ asset: ether, expectedAddress: etherAddress.replace(/[a-f]/, (c) => c.toUpperCase()) }, "input.expectedAddress"],
    ];
    for (const [input, field] of cases) {
      const body = await request(input);
      expect(body.errors?.[0]?.extensions, JSON.stringify(input)).toMatchObject({ code: "BAD_USER_INPUT", field });
    }
    expect((await aopd.query(`{ aopd { proofsCount } }`)).body).toEqual(before.body);
  });
});

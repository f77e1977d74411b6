import { HDKey } from "@scure/bip32";
import { base64 } from "@scure/base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ethereumAddressOf,
  multisigVault,
  p2wpkhAddress,
  signBip322Script,
  vaultKeys,
  publicKeyOf,
  signBip322PublicKeyHash,
  signLegacy,
  signPersonalMessage,
  testSecretKey,
} from "@compliance-graph/test-kit";
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
    const { body } = await aopd.query(`query($id: ID!) { aopd { proof(id: $id) { status ... on AopdSignatureProof { signature xpub signatureScheme } } } }`, {
      id,
    });
    return (body.data!.aopd as { proof: { status: string; signature: string | null; xpub: string | null; signatureScheme: string | null } }).proof;
  };

  beforeAll(async () => {
    // Rate limits have their own test; here fifty callbacks of one credential arrive at once.
    aopd = await startTestAopd(driver, { config: { rateLimitPerCredential: 0, rateLimitPerClient: 0 } });
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
    // One credential per proof: the portal URL ends in the callback's token.
    const token = callbackUrl(result.aoppUri).split("/").pop();
    expect(result.portalUrl).toBe(`http://localhost:4000/portal/${token}`);
    expect(new Date(result.proof.dueAt).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
  });

  it("verifies a BIP-322 signature posted to the callback; a retry of it gets 204 again, another signature 409", async () => {
    const { aoppUri, proof } = await created();
    const signature = signBip322PublicKeyHash(bitcoinKey, bitcoinAddress, proof.message);
    expect(await post(callbackUrl(aoppUri), { version: 0, address: bitcoinAddress, signature })).toEqual({ status: 204, body: undefined });
    // The record says how control was proven: the scheme that verified the signature.
    expect(await statusOf(proof.id)).toEqual({ status: "VERIFIED", signature, xpub: null, signatureScheme: "BIP322_SIMPLE" });
    // The wallet lost the 204 and retries: the same success, nothing changes.
    expect(await post(callbackUrl(aoppUri), { version: 0, address: bitcoinAddress, signature })).toEqual({ status: 204, body: undefined });
    const other = await post(callbackUrl(aoppUri), { version: 0, address: bitcoinAddress, signature: signLegacy(bitcoinKey, proof.message, 39) });
    expect(other).toMatchObject({ status: 409, body: { error: "not_pending", status: "VERIFIED" } });
    // The record says how control was proven: the scheme that verified the signature.
    expect(await statusOf(proof.id)).toEqual({ status: "VERIFIED", signature, xpub: null, signatureScheme: "BIP322_SIMPLE" });
  });

  it("verifies a 2-of-3 vault's BIP-322 signature and records which keys signed", async () => {
    const vaultKeySet = vaultKeys("ingestion vault", 3);
    const vault = multisigVault(2, vaultKeySet.publicKeys, { sorted: true });
    const { aoppUri, proof } = await created({ expectedAddress: vault.address });
    const signature = signBip322Script(vault, proof.message, [vaultKeySet.secrets[0]!, vaultKeySet.secrets[2]!]);
    expect(await post(callbackUrl(aoppUri), { version: 0, address: vault.address, signature })).toEqual({ status: 204, body: undefined });
    const { body } = await aopd.query(
      `query($id: ID!) { aopd { proof(id: $id) { status ... on AopdSignatureProof { signatureScheme signatureScript { template threshold keyCount signers } } } } }`,
      { id: proof.id },
    );
    expect(body.data!.aopd).toEqual({
      proof: {
        status: "VERIFIED",
        signatureScheme: "BIP322_SCRIPT",
        signatureScript: {
          template: "sortedmulti",
          threshold: 2,
          keyCount: 3,
          signers: [vaultKeySet.publicKeys[0], vaultKeySet.publicKeys[2]].map((key) => Buffer.from(key!).toString("hex")).sort(),
        },
      },
    });
  });

  it("of fifty concurrent callbacks with two different signatures, one signature wins: its copies get 204, the others 409", async () => {
    const { aoppUri, proof } = await created();
    const legacy = signLegacy(bitcoinKey, proof.message, 39);
    const bip322 = signBip322PublicKeyHash(bitcoinKey, bitcoinAddress, proof.message);
    const signatures = Array.from({ length: 50 }, (_, index) => (index % 2 === 0 ? legacy : bip322));
    const answers = await Promise.all(signatures.map((signature) => post(callbackUrl(aoppUri), { version: 0, address: bitcoinAddress, signature })));
    const { signature: winner, signatureScheme } = await statusOf(proof.id);
    expect(signatureScheme).toBe(winner === legacy ? "BITCOIN_SIGNED_MESSAGE" : "BIP322_SIMPLE");
    expect([legacy, bip322]).toContain(winner);
    answers.forEach((answer, index) => expect(answer.status).toBe(signatures[index] === winner ? 204 : 409));
  });

  it("refuses bad callbacks with a reason and leaves the proof pending", async () => {
    const { aoppUri, proof } = await created();
    const url = callbackUrl(aoppUri);
    const good = signBip322PublicKeyHash(bitcoinKey, bitcoinAddress, proof.message);
    const otherAddress = p2wpkhAddress(publicKeyOf(testSecretKey("someone else")));
    const cases: [unknown, string, RegExp][] = [
      ["not an object", "invalid_body", /JSON object/],
      [{ version: 1, address: bitcoinAddress, signature: good }, "invalid_body", /version 0/],
      [{ version: 0, signature: good }, "invalid_body", /address must be a string/],
      [{ version: 0, address: otherAddress, signature: good }, "address_mismatch", /differs from the address the proof expects/],
      [{ version: 0, address: bitcoinAddress, signature: signBip322PublicKeyHash(bitcoinKey, bitcoinAddress, "another message") }, "signature_mismatch", /./],
      [{ version: 0, address: bitcoinAddress, signature: "bm90IGEgc2lnbmF0dXJl" }, "malformed_signature", /./],
    ];
    for (const [body, error, reason] of cases) {
      const answer = await post(url, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body?.error, JSON.stringify(body)).toBe(error);
      expect(answer.body?.reason).toMatch(reason);
    }
    expect(await post(url.replace(/[A-Za-z0-9_-]{43}$/, "A".repeat(43)), { version: 0, address: bitcoinAddress, signature: good })).toMatchObject({
      status: 404,
      body: { error: "unknown_proof" },
    });
    expect(await post(`${url}x`, {})).toMatchObject({ status: 404, body: { error: "unknown_proof" } });
    const get = await fetch(url);
    expect([get.status, get.headers.get("allow"), ((await get.json()) as { error: string }).error]).toEqual([405, "POST, OPTIONS", "method_not_allowed"]);
    expect((await statusOf(proof.id)).status).toBe("PENDING");
  });

  it("refuses a callback for an expired proof and leaves it as it is", async () => {
    const { aoppUri, proof } = await created();
    await aopd.services.db
      .updateTable("aopd_proof")
      .set({ due_at: new Date(Date.now() - 1_000) })
      .where("id", "=", proof.id)
      .execute();
    const signature = signBip322PublicKeyHash(bitcoinKey, bitcoinAddress, proof.message);
    expect(await post(callbackUrl(aoppUri), { version: 0, address: bitcoinAddress, signature })).toMatchObject({ status: 409, body: { error: "expired" } });
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
    expect(withoutXpub).toMatchObject({ status: 400, body: { error: "xpub_required", reason: "This proof requires the xpub the address derives from." } });
    const foreign = HDKey.fromMasterSeed(testSecretKey("other seed")).derive("m/84'/0'/0'").publicExtendedKey;
    expect(await post(callbackUrl(aoppUri), { version: 0, address, signature, xpub: foreign })).toMatchObject({
      status: 400,
      body: { error: "xpub_mismatch" },
    });
    expect(await post(callbackUrl(aoppUri), { version: 0, address, signature, xpub: "xpub-not-a-key" })).toMatchObject({
      status: 400,
      body: { error: "invalid_xpub" },
    });
    expect((await post(callbackUrl(aoppUri), { version: 0, address, signature, xpub })).status).toBe(204);
    const { body } = await aopd.query(
      `query($xpub: String!) { aopd { proofForXpub(xpub: $xpub) { id xpub status }
      proofs(filter: { is: { signature: { xpub: { xpub: { eq: $xpub } } } } }) { id } } }`,
      { xpub },
    );
    expect(body.data).toEqual({ aopd: { proofForXpub: { id: proof.id, xpub, status: "VERIFIED" }, proofs: [{ id: proof.id }] } });
  });

  it("refuses bad requests with BAD_USER_INPUT naming the field, creating nothing", async () => {
    const before = await aopd.query(`{ aopd { proofsCount } }`);
    const cases: [Record<string, unknown>, string][] = [
      [{ customerId: "  " }, "input.customerId"],
      [{ asset: "DTIK1NS41N51" }, "input.asset"],
      [{ asset: "DTI20J63Z4N3" }, "input.expectedAddress"],
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

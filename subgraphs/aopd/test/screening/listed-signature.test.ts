import { ofacSdnListName } from "@compliance-graph/sanctions-lists";
import { p2pkhAddress, p2wpkhAddress, publicKeyOf, signBip322PublicKeyHash, signPsbtAsCoordinator, testSecretKey } from "@compliance-graph/test-kit";
import * as btc from "@scure/btc-signer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importSanctionsList } from "../../src/screening/import-sanctions-list.js";
import { portalApi, postJson, requestSignatureProof } from "../support/portal-client.js";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

/** A key whose address a list version names: the sanctioned party proving its own address. */
const listedKey = testSecretKey("listed signer");
const listedAddress = p2wpkhAddress(publicKeyOf(listedKey));
const clearKey = testSecretKey("clear signer");
const clearAddress = p2wpkhAddress(publicKeyOf(clearKey));
/** A key whose legacy (P2PKH) address is listed, proving its own SegWit address, which no list names. */
const siblingListedKey = testSecretKey("sibling listed signer");
const siblingListedAddress = p2pkhAddress(publicKeyOf(siblingListedKey));
const siblingProvenAddress = p2wpkhAddress(publicKeyOf(siblingListedKey));

/**
 * Issue 35, attack 5: under AOPD_SCREENING_POLICY=refuse, an AOPP request without an address (so
 * nothing was screened at request time) signed by a listed key must not become VERIFIED: the
 * signature is taken, the proof is left for review with the screening named on the trail for the
 * officer, and the customer reads the neutral text of any review.
 */
describe.each(databaseDrivers)("a listed address's signature under the refusal policy on %s", (driver) => {
  let aopd: TestAopd;
  beforeAll(async () => {
    aopd = await startTestAopd(driver, { config: { rateLimitPerCredential: 0, rateLimitPerClient: 0, screening: { policy: "refuse", provider: undefined } } });
    await importSanctionsList(aopd.services.db, aopd.services.config.assets, {
      list: ofacSdnListName,
      // Newer than any bundled version, so it is the list screened against.
      publishedOn: "2099-01-01",
      source: "listed-signature.test.ts",
      contentHash: "f".repeat(64),
      addresses: [
        { ofacAsset: "XBT", address: listedAddress, family: "bitcoin", sdnUid: "990035", sdnName: "LISTED SIGNER" },
        { ofacAsset: "XBT", address: siblingListedAddress, family: "bitcoin", sdnUid: "990036", sdnName: "LISTED KEY" },
      ],
    });
  }, 180_000);
  afterAll(async () => {
    await aopd?.close();
  });

  const officerView = async (id: string) => {
    const { body } = await aopd.query(
      `query($id: String!) { aopd { proofs(filter: { is: { any: { id: { eq: $id } } } }) { id status address screening { status list matchedEntry { sdnUid } } } } }`,
      { id },
    );
    expect(body.errors).toBeUndefined();
    return (body.data!.aopd as { proofs: Record<string, unknown>[] }).proofs[0]!;
  };
  const submittedEntry = async (proofId: string) => {
    const entry = await aopd.services.db
      .selectFrom("aopd_audit_entry")
      .select(["action", "details"])
      .where("proof_id", "=", proofId)
      .where("action", "=", "SUBMITTED")
      .executeTakeFirstOrThrow();
    return { ...entry, details: (typeof entry.details === "string" ? JSON.parse(entry.details) : entry.details) as Record<string, unknown> };
  };

  it("leaves a portal signature of a listed key for review, names the screening for the officer, and tells the customer only that it is received", async () => {
    const { token, proof } = await requestSignatureProof(aopd, { format: "P2WPKH" });
    expect(proof.address).toBeNull();
    const signature = signBip322PublicKeyHash(listedKey, listedAddress, proof.message);
    const answer = await postJson<{ proof: Record<string, unknown> }>(aopd, `${token}/signature`, { address: listedAddress, signature });
    expect(answer.status).toBe(200);
    expect(answer.body.proof).toMatchObject({ id: proof.id, status: "SUBMITTED", address: listedAddress });
    // The customer's view says nothing of why: no screening, no list.
    expect(JSON.stringify(answer.body)).not.toMatch(/LISTED|sanction|OFAC|screening/i);
    // The same submission again: the same answer.
    const again = await postJson<{ proof: Record<string, unknown> }>(aopd, `${token}/signature`, { address: listedAddress, signature });
    expect([again.status, again.body.proof.status]).toEqual([200, "SUBMITTED"]);

    expect(await officerView(proof.id)).toMatchObject({
      status: "SUBMITTED",
      screening: { status: "LISTED", list: ofacSdnListName, matchedEntry: { sdnUid: "990035" } },
    });
    const entry = await submittedEntry(proof.id);
    expect(entry.details).toMatchObject({
      evidence: "signature",
      leftForReview: "screening",
      screening: { status: "LISTED", list: ofacSdnListName, listVersion: "2099-01-01" },
    });
    expect(JSON.stringify(entry.details)).toContain("990035");
  });

  it("leaves an AOPP callback of a listed key for review too, and verifies a clear key's signature as before", async () => {
    const listed = await requestSignatureProof(aopd, { format: "P2WPKH" });
    const callback = await fetch(new URL(`/aopp/callback/${listed.token}`, aopd.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ version: 0, address: listedAddress, signature: signBip322PublicKeyHash(listedKey, listedAddress, listed.proof.message) }),
    });
    expect(callback.status).toBe(204);
    expect(await officerView(listed.proof.id)).toMatchObject({ status: "SUBMITTED", screening: { status: "LISTED" } });

    const clear = await requestSignatureProof(aopd, { format: "P2WPKH" });
    const answer = await postJson<{ proof: Record<string, unknown> }>(aopd, `${clear.token}/signature`, {
      address: clearAddress,
      signature: signBip322PublicKeyHash(clearKey, clearAddress, clear.proof.message),
    });
    expect(answer.body.proof).toMatchObject({ status: "VERIFIED" });
    expect((await submittedEntry(clear.proof.id)).details).not.toHaveProperty("leftForReview");
  });

  /** What a proof of a clear address whose key's P2PKH address is listed must come to, whatever the key signed. */
  const expectLeftForSiblingReview = async (proofId: string, answer: { status: number; body: unknown }, provenAddress: string, scheme: string) => {
    expect(answer.status).toBe(200);
    expect((answer.body as { proof: unknown }).proof).toMatchObject({ status: "SUBMITTED", address: provenAddress });
    expect(JSON.stringify(answer.body)).not.toMatch(/LISTED|sanction|OFAC|screening/i);
    expect(await officerView(proofId)).toMatchObject({ status: "SUBMITTED", screening: { status: "LISTED", matchedEntry: { sdnUid: "990036" } } });
    expect((await submittedEntry(proofId)).details).toMatchObject({
      leftForReview: "screening",
      screening: { status: "LISTED", matchedForm: "P2PKH", matchedAddress: siblingListedAddress, entry: expect.stringContaining("990036") },
    });
    const row = await aopd.services.db
      .selectFrom("aopd_proof")
      .select(["left_for_review", "signature_scheme"])
      .where("id", "=", proofId)
      .executeTakeFirstOrThrow();
    // Left for an officer (assessSignatureProof), the scheme the key proved control with kept for them.
    expect(row).toEqual({ left_for_review: "screening", signature_scheme: scheme });
  };

  it("leaves for review a signature of a clear address whose key's other address is listed, naming the form and address that matched", async () => {
    const { token, proof } = await requestSignatureProof(aopd, { format: "P2WPKH" });
    const answer = await postJson(aopd, `${token}/signature`, {
      address: siblingProvenAddress,
      signature: signBip322PublicKeyHash(siblingListedKey, siblingProvenAddress, proof.message),
    });
    await expectLeftForSiblingReview(proof.id, answer, siblingProvenAddress, "bip322-simple");
  });

  // The same key signing the proof's PSBT instead (a wallet that signs transactions, not messages) reveals the same key.
  it.each([
    { form: "P2WPKH", payment: btc.p2wpkh(publicKeyOf(siblingListedKey)), finalize: false },
    { form: "P2SH-P2WPKH", payment: btc.p2sh(btc.p2wpkh(publicKeyOf(siblingListedKey))), finalize: true },
  ])("leaves for review the $form PSBT (finalized: $finalize) of a clear address whose key's other address is listed", async ({ payment, finalize }) => {
    const { token, proof } = await requestSignatureProof(aopd, { expectedAddress: payment.address });
    const offered = (await portalApi<{ signature: { psbt: string | null } }>(aopd, token)).body.signature.psbt;
    expect(offered).toMatch(/^cHNidP8/);
    const answer = await postJson(aopd, `${token}/signature`, { signature: signPsbtAsCoordinator(payment, offered!, [siblingListedKey], { finalize }) });
    await expectLeftForSiblingReview(proof.id, answer, payment.address!, "psbt");
  });
});

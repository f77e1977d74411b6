import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { p2wpkhAddress, publicKeyOf, signBip322PublicKeyHash, testSecretKey } from "@compliance-graph/test-kit";
import { portalApi, postJson, requestSatoshiProofFor, requestSignatureProof } from "../support/portal-client.js";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

/**
 * The public routes (AOPP callback, portal API) take no bearer token: the one-time credential in
 * the path is all that names a proof. Each test is an attempt to reach or change a proof other
 * than the one the credential was issued for, or to reach one without its credential.
 */
const key = testSecretKey("credential attacks");
const address = p2wpkhAddress(publicKeyOf(key));
type Refusal = { error: string };

describe.each(databaseDrivers)("credential confusion on the public routes (%s)", (driver) => {
  let aopd: TestAopd;
  beforeAll(async () => {
    aopd = await startTestAopd(driver, { config: { rateLimitPerCredential: 0, rateLimitPerClient: 0 } });
  });
  afterAll(async () => {
    await aopd?.close();
  });
  const statusOf = async (id: string) =>
    await aopd.services.db
      .selectFrom("aopd_proof")
      .select(["status", "signature", "tx_id", "signature_attempts"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();

  it("another proof's credential cannot verify or read this proof", async () => {
    const mine = await requestSignatureProof(aopd, { expectedAddress: address });
    const victim = await requestSignatureProof(aopd, { expectedAddress: address });
    // A valid signature over the victim's message, posted with my credential.
    const signature = signBip322PublicKeyHash(key, address, victim.proof.message);
    const answer = await postJson<Refusal>(aopd, `${mine.token}/signature`, { signature });
    expect([answer.status, answer.body.error]).toEqual([400, "signature_mismatch"]);
    const callback = await fetch(new URL(`/aopp/callback/${mine.token}`, aopd.url), {
      method: "POST",
      body: JSON.stringify({ version: 0, address, signature }),
    });
    expect(callback.status).toBe(400);
    expect(await statusOf(victim.proof.id)).toMatchObject({ status: "PENDING", signature: null, signature_attempts: 0 });
    expect(await statusOf(mine.proof.id)).toMatchObject({ status: "PENDING", signature: null });
    const view = await portalApi(aopd, mine.token);
    expect(view.body.id).toBe(mine.proof.id);
    expect(JSON.stringify(view.body)).not.toContain(victim.proof.id);
  });

  it("a Satoshi proof's credential is unknown on the signature route and the callback; a signature proof's on the transaction route", async () => {
    const satoshi = await requestSatoshiProofFor(aopd);
    const signature = await requestSignatureProof(aopd, { expectedAddress: address });
    const onSignature = await postJson<Refusal>(aopd, `${satoshi.token}/signature`, { address, signature: signBip322PublicKeyHash(key, address, "x") });
    expect([onSignature.status, onSignature.body.error]).toEqual([404, "unknown_proof"]);
    const onCallback = await fetch(new URL(`/aopp/callback/${satoshi.token}`, aopd.url), {
      method: "POST",
      body: JSON.stringify({ version: 0, address, signature: "AAAA" }),
    });
    expect([onCallback.status, ((await onCallback.json()) as Refusal).error]).toEqual([404, "unknown_proof"]);
    const onTransaction = await postJson<Refusal>(aopd, `${signature.token}/transaction`, { txId: "a".repeat(64) });
    expect([onTransaction.status, onTransaction.body.error]).toEqual([404, "unknown_proof"]);
    expect(await statusOf(satoshi.id)).toMatchObject({ status: "PENDING", tx_id: null, signature: null });
    expect(await statusOf(signature.proof.id)).toMatchObject({ status: "PENDING", tx_id: null, signature: null });
  });

  it("the proof id, the stored hash, a case-changed credential and path-traversal shapes are unknown_proof, never another route", async () => {
    const { token, proof } = await requestSignatureProof(aopd, { expectedAddress: address });
    const { callback_token_hash: hash } = await aopd.services.db
      .selectFrom("aopd_proof")
      .select("callback_token_hash")
      .where("id", "=", proof.id)
      .executeTakeFirstOrThrow();
    const flipped = token.replace(/[a-z]/, (letter) => letter.toUpperCase());
    const shapes = [
      proof.id,
      hash!.toString("base64url"),
      flipped === token ? token.replace(/[A-Z]/, (letter) => letter.toLowerCase()) : flipped,
      `${token}x`,
      token.slice(1),
      "",
      `${token}/signature/extra`,
      `${token}%2fsignature`,
      `${token}/%2e%2e`,
      `%2e%2e%2f%2e%2e%2fgraphql`,
      `${token}/..%2f..%2f..%2fgraphql`,
      `${token};signature`,
      `${token}/unknown-action`,
      encodeURIComponent(`${token.slice(0, 42)}/`),
    ];
    for (const shape of shapes) {
      const answer = await portalApi<Refusal>(aopd, shape);
      expect([answer.status, answer.body.error], shape).toEqual([404, "unknown_proof"]);
      const posted = await postJson<Refusal>(aopd, `${shape}/signature`, { signature: "AAAA" });
      expect([posted.status, posted.body.error], shape).toEqual([404, "unknown_proof"]);
    }
    const callback = await fetch(new URL(`/aopp/callback/${proof.id}`, aopd.url), { method: "POST", body: "{}" });
    expect([callback.status, ((await callback.json()) as Refusal).error]).toEqual([404, "unknown_proof"]);
    // The right credential with a query string still names its own proof only.
    expect((await portalApi(aopd, `${token}?proof=${proof.id}`)).body).toMatchObject({ id: proof.id });
    expect(await statusOf(proof.id)).toMatchObject({ status: "PENDING", signature_attempts: 0 });
  });
});

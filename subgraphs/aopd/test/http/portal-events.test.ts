import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { forwardPathPrefix, RouteTable } from "@compliance-graph/process-shell";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ofacSdnListName } from "@compliance-graph/sanctions-lists";
import { p2wpkhAddress, publicKeyOf, signBip322PublicKeyHash, testSecretKey } from "@compliance-graph/test-kit";
import { importSanctionsList } from "../../src/screening/import-sanctions-list.js";
import { portalApi, postJson, requestSatoshiProofFor, requestSignatureProof } from "../support/portal-client.js";
import { readEventStream, type StreamEvent } from "../support/read-event-stream.js";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

const key = testSecretKey("portal events");
const address = p2wpkhAddress(publicKeyOf(key));
const listedKey = testSecretKey("portal events listed");
const listedAddress = p2wpkhAddress(publicKeyOf(listedKey));

describe.each(databaseDrivers)("the portal's live updates on %s", (driver) => {
  let aopd: TestAopd;
  // The ingress of `npm start` in front of aopd: the event stream must flow through it as written.
  let ingress: Server;
  let ingressUrl: string;
  beforeAll(async () => {
    aopd = await startTestAopd(driver, {
      config: { rateLimitPerCredential: 0, rateLimitPerClient: 0, maxEventStreamsPerCredential: 2, screening: { policy: "refuse", provider: undefined } },
    });
    await importSanctionsList(aopd.services.db, aopd.services.config.assets, {
      list: ofacSdnListName,
      publishedOn: "2099-01-01",
      source: "portal-events.test.ts",
      contentHash: "d".repeat(64),
      addresses: [{ ofacAsset: "XBT", address: listedAddress, family: "bitcoin", sdnUid: "993503", sdnName: "LISTED SIGNER" }],
    });
    const forward = new RouteTable([forwardPathPrefix("/portal/", aopd.url)]);
    ingress = createServer((request, response) => void forward.answer(request, response, "ingress"));
    await new Promise<void>((resolve) => ingress.listen(0, "127.0.0.1", resolve));
    ingressUrl = `http://127.0.0.1:${(ingress.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    ingress?.closeAllConnections();
    await new Promise<void>((resolve) => (ingress ? ingress.close(() => resolve()) : resolve()));
    await aopd?.close();
  });

  const openStream = async (base: string, token: string) => {
    const response = await fetch(`${base}/portal/api/proof/${token}/events`, { headers: { accept: "text/event-stream" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    return readEventStream(response.body!);
  };
  const next = async (events: AsyncGenerator<StreamEvent>) => {
    const { value, done } = await events.next();
    expect(done).toBe(false);
    return value as StreamEvent;
  };

  for (const through of ["aopd itself", "the npm start forwarder"] as const) {
    it(`delivers a change made through the AOPP callback and then ends the stream (${through})`, async () => {
      const { token, proof, aoppUri } = await requestSignatureProof(aopd, { expectedAddress: address });
      const events = await openStream(through === "aopd itself" ? new URL(aopd.url).origin : ingressUrl, token);
      const first = await next(events);
      expect(first).toEqual({ event: "proof", data: (await portalApi(aopd, token)).body });
      expect(first.data).toMatchObject({ status: "PENDING" });

      const callback = new URL(aoppUri.replace(/^aopp:/, "aopp://x")).searchParams.get("callback")!;
      const posted = await fetch(new URL(new URL(callback).pathname, aopd.url), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ version: 0, address, signature: signBip322PublicKeyHash(key, address, proof.message) }),
      });
      expect(posted.status).toBe(204);
      const second = await next(events);
      expect(second.data).toEqual((await portalApi(aopd, token)).body);
      expect(second.data).toMatchObject({ status: "VERIFIED", dueAt: null, settled: true });
      expect(JSON.stringify(second.data)).not.toContain('CUST-PORTAL"');
      // VERIFIED is final: the server ends the stream.
      expect((await events.next()).done).toBe(true);
    });
  }

  it("streams a Satoshi proof from PENDING to SUBMITTED to its assessment, and on to its reopening", async () => {
    const { token, id } = await requestSatoshiProofFor(aopd);
    const events = await openStream(ingressUrl, token);
    expect((await next(events)).data).toMatchObject({ status: "PENDING" });
    expect((await postJson(aopd, `${token}/transaction`, { txId: "f".repeat(64) })).status).toBe(200);
    expect((await next(events)).data).toMatchObject({ status: "SUBMITTED", satoshi: { txId: "f".repeat(64) } });
    await aopd.query(`mutation($id: ID!) { aopd { assessSatoshiProof(id: $id, assessment: FAILED, reason: WRONG_AMOUNT) { id } } }`, { id });
    expect((await next(events)).data).toMatchObject({ status: "FAILED", settled: false });
    // An officer's decision is not the end: its reopening reaches the page on the same stream.
    await aopd.query(`mutation($id: ID!) { aopd { reopenProof(id: $id, reason: "Checked the wrong transaction.") { id } } }`, { id });
    expect((await next(events)).data).toMatchObject({ status: "SUBMITTED", settled: false });
    await events.return?.(undefined);
  });

  it("keeps streaming a signature proof an officer decided after screening left it for review, on to its reopening", async () => {
    const { token, proof } = await requestSignatureProof(aopd, { format: "P2WPKH" });
    const events = await openStream(ingressUrl, token);
    expect((await next(events)).data).toMatchObject({ status: "PENDING" });
    const signed = await postJson(aopd, `${token}/signature`, {
      address: listedAddress,
      signature: signBip322PublicKeyHash(listedKey, listedAddress, proof.message),
    });
    expect(signed.status).toBe(200);
    expect((await next(events)).data).toMatchObject({ status: "SUBMITTED", settled: false });
    const decide = `mutation($id: ID!) { aopd { assessSignatureProof(id: $id, assessment: FAILED, reason: SANCTIONED_ADDRESS) { id } } }`;
    expect((await aopd.query(decide, { id: proof.id })).body.errors).toBeUndefined();
    // The officer's decision, not the signature's: it can be reopened, so the stream goes on.
    expect((await next(events)).data).toMatchObject({ status: "FAILED", settled: false });
    const reopen = `mutation($id: ID!) { aopd { reopenProof(id: $id, reason: "Failed the wrong customer's proof.") { id } } }`;
    expect((await aopd.query(reopen, { id: proof.id })).body.errors).toBeUndefined();
    expect((await next(events)).data).toMatchObject({ status: "SUBMITTED", settled: false });
    await events.return?.(undefined);
  });

  it("sends a final proof once and ends; refuses a stream beyond the per-credential cap", async () => {
    const { token, proof } = await requestSignatureProof(aopd, { expectedAddress: address });
    const open = [await openStream(ingressUrl, token), await openStream(ingressUrl, token)];
    for (const events of open) expect((await next(events)).data).toMatchObject({ status: "PENDING" });
    const third = await portalApi(aopd, `${token}/events`);
    expect([third.status, third.body.error, third.headers.get("retry-after")]).toEqual([429, "rate_limited", "30"]);
    await postJson(aopd, `${token}/signature`, { signature: signBip322PublicKeyHash(key, address, proof.message) });
    for (const events of open) {
      expect((await next(events)).data).toMatchObject({ status: "VERIFIED" });
      expect((await events.next()).done).toBe(true);
    }
    const final = await openStream(ingressUrl, token);
    expect((await next(final)).data).toMatchObject({ status: "VERIFIED" });
    expect((await final.next()).done).toBe(true);
  });

  it("answers an unknown credential's stream with unknown_proof", async () => {
    const answer = await portalApi(aopd, `${"B".repeat(43)}/events`);
    expect([answer.status, answer.body.error]).toEqual([404, "unknown_proof"]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { p2wpkhAddress, publicKeyOf, signBip322PublicKeyHash, testSecretKey } from "@compliance-graph/test-kit";
import { portalApi, postJson, requestSignatureProof } from "../support/portal-client.js";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

const key = testSecretKey("portal abuse");
const address = p2wpkhAddress(publicKeyOf(key));
type Refusal = { error: string; reason: string };

describe.each(databaseDrivers)("abuse bounds of the public routes on %s", (driver) => {
  describe("rate limits", () => {
    let aopd: TestAopd;
    beforeAll(async () => {
      // Small limits (per minute, burst as large); the client address comes from one trusted proxy hop.
      aopd = await startTestAopd(driver, {
        config: { rateLimitPerCredential: 3, rateLimitPerClient: 6, readRateLimitPerCredential: 3, readRateLimitPerClient: 100, trustedProxyHops: 1 },
      });
    });
    afterAll(async () => {
      await aopd?.close();
    });
    const from = (client: string, init: RequestInit = {}): RequestInit => ({
      ...init,
      headers: { ...(init.headers as Record<string, string>), "x-forwarded-for": client },
    });
    // An empty JSON object: refused as invalid_body after the limits, so it spends a submission and changes nothing.
    const emptySubmission: RequestInit = { method: "POST", headers: { "content-type": "application/json" }, body: "{}" };

    it("refuses a credential's fourth submission in a minute with 429 rate_limited and Retry-After, whatever the route", async () => {
      const { token } = await requestSignatureProof(aopd, { expectedAddress: address });
      expect((await portalApi(aopd, `${token}/signature`, from("198.51.100.1", emptySubmission))).status).toBe(400);
      expect((await portalApi(aopd, `${token}/signature`, from("198.51.100.2", emptySubmission))).status).toBe(400);
      const callback = await fetch(new URL(`/aopp/callback/${token}`, aopd.url), {
        method: "POST",
        headers: { "x-forwarded-for": "198.51.100.3" },
        body: "{}",
      });
      expect(callback.status).toBe(400);
      const limited = await portalApi<Refusal>(aopd, `${token}/signature`, from("198.51.100.4", emptySubmission));
      expect([limited.status, limited.body.error]).toEqual([429, "rate_limited"]);
      expect(Number(limited.headers.get("retry-after"))).toBe(20);
      expect(limited.body.reason).toMatch(/^Too many submissions for this link; try again in 20 seconds\.$/);
      const limitedCallback = await fetch(new URL(`/aopp/callback/${token}`, aopd.url), {
        method: "POST",
        headers: { "x-forwarded-for": "198.51.100.5" },
        body: "{}",
      });
      expect([limitedCallback.status, ((await limitedCallback.json()) as Refusal).error]).toEqual([429, "rate_limited"]);
    });

    it("lets reads (page loads) spend a budget of their own: reloads never lock out a submission, and reads have a limit too", async () => {
      const { token } = await requestSignatureProof(aopd, { expectedAddress: address });
      // Three reads per credential (the read budget here): a fourth is refused, as a read.
      for (let reload = 0; reload < 3; reload += 1) expect((await portalApi(aopd, token, from("198.51.100.20"))).status).toBe(200);
      const limitedRead = await portalApi<Refusal>(aopd, token, from("198.51.100.21"));
      expect([limitedRead.status, limitedRead.body.error]).toEqual([429, "rate_limited"]);
      expect(limitedRead.body.reason).toMatch(/^Too many reads for this link; try again in \d+ seconds\.$/);
      // The submission budget is untouched: the customer may still submit three times.
      for (let attempt = 0; attempt < 3; attempt += 1)
        expect((await portalApi(aopd, `${token}/signature`, from("198.51.100.22", emptySubmission))).status).toBe(400);
    });

    it("refuses a client address beyond its limit across credentials, and tells clients apart by the trusted hop only", async () => {
      const proofs = await Promise.all(Array.from({ length: 7 }, () => requestSignatureProof(aopd, { expectedAddress: address })));
      const answers = [];
      // The client forges a different leftmost entry each time; the trusted hop's entry stays 203.0.113.7.
      for (const [index, { token }] of proofs.entries())
        answers.push((await portalApi(aopd, `${token}/signature`, from(`10.9.9.${index}, 203.0.113.7`, emptySubmission))).status);
      expect(answers).toEqual([400, 400, 400, 400, 400, 400, 429]);
      expect((await portalApi(aopd, `${proofs[6]!.token}/signature`, from("203.0.113.8", emptySubmission))).status).toBe(400);
      // Not credential-shaped paths count against the client too.
      expect((await portalApi(aopd, "%2e%2e%2f%2e%2e%2fgraphql", from("203.0.113.7", emptySubmission))).status).toBe(429);
    });
  });

  describe("failed-attempt cap", () => {
    let aopd: TestAopd;
    beforeAll(async () => {
      aopd = await startTestAopd(driver, { config: { rateLimitPerCredential: 0, rateLimitPerClient: 0, maxFailedAttempts: 3 } });
    });
    afterAll(async () => {
      await aopd?.close();
    });

    it("refuses every submission after three failed ones with too_many_attempts, counted in the database", async () => {
      const { token, proof, aoppUri } = await requestSignatureProof(aopd, { expectedAddress: address });
      const wrong = signBip322PublicKeyHash(key, address, "not the message");
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const answer = await postJson<Refusal>(aopd, `${token}/signature`, { signature: wrong });
        expect([answer.status, answer.body.error]).toEqual([400, "signature_mismatch"]);
      }
      const row = await aopd.services.db.selectFrom("aopd_proof").select(["signature_attempts", "status"]).where("id", "=", proof.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ signature_attempts: 3, status: "PENDING" });
      // Even the right signature, on either route, no longer gets a verification.
      const right = signBip322PublicKeyHash(key, address, proof.message);
      const capped = await postJson<Refusal>(aopd, `${token}/signature`, { signature: right });
      expect([capped.status, capped.body.error]).toEqual([409, "too_many_attempts"]);
      const callback = new URL(new URL(aoppUri.replace(/^aopp:/, "aopp://x")).searchParams.get("callback")!).pathname;
      const viaCallback = await fetch(new URL(callback, aopd.url), { method: "POST", body: JSON.stringify({ version: 0, address, signature: right }) });
      expect([viaCallback.status, ((await viaCallback.json()) as Refusal).error]).toEqual([409, "too_many_attempts"]);
      expect((await portalApi(aopd, token)).body).toMatchObject({ status: "PENDING" });
    });

    it("lets at most the cap of concurrent wrong submissions be verified", async () => {
      const { token, proof } = await requestSignatureProof(aopd, { expectedAddress: address });
      const wrong = signBip322PublicKeyHash(key, address, "still not the message");
      const answers = await Promise.all(Array.from({ length: 12 }, () => postJson<Refusal>(aopd, `${token}/signature`, { signature: wrong })));
      expect(answers.filter((answer) => answer.body.error === "signature_mismatch")).toHaveLength(3);
      expect(answers.filter((answer) => answer.body.error === "too_many_attempts")).toHaveLength(9);
      const row = await aopd.services.db.selectFrom("aopd_proof").select("signature_attempts").where("id", "=", proof.id).executeTakeFirstOrThrow();
      expect(row.signature_attempts).toBe(3);
    });
  });
});

import { Wallet } from "ethers";
import { SiweMessage } from "siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { etherAsset, portalApi, postJson, requestSignatureProof } from "../support/portal-client.js";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

type Refusal = { error: string; reason: string };
type View = { signature: { message: string; signInMessage: string | null } };

/**
 * The sign-in message (EIP-4361) of an Ethereum signature proof: signed with ethers, read and
 * verified by the `siwe` package (an implementation other than aopd's), accepted once; refused
 * with its nonce on another proof, expired, or naming another domain.
 */
describe.each(databaseDrivers)("sign-in messages (EIP-4361) of signature proofs on %s", (driver) => {
  let aopd: TestAopd;
  const wallet = Wallet.createRandom();

  beforeAll(async () => {
    aopd = await startTestAopd(driver, { config: { rateLimitPerCredential: 0, rateLimitPerClient: 0 } });
  }, 120_000);
  afterAll(async () => {
    await aopd?.close();
  });

  const rowOf = (id: string) =>
    aopd.services.db
      .selectFrom("aopd_proof")
      .select(["status", "signature_scheme", "signed_message", "signature"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  async function offered() {
    const requested = await requestSignatureProof(aopd, { asset: etherAsset, expectedAddress: wallet.address });
    const view = (await portalApi<View>(aopd, requested.token)).body;
    return { ...requested, signInMessage: view.signature.signInMessage! };
  }
  /** A SIWE message like the offered one, with some fields changed, prepared by the `siwe` package. */
  function variant(offeredMessage: string, change: Partial<SiweMessage>): string {
    const base = new SiweMessage(offeredMessage);
    return new SiweMessage({ ...base, ...change }).prepareMessage();
  }

  it("offers a SIWE message naming the portal, chain, nonce and times, which siwe verifies and aopd accepts once", async () => {
    const proof = await offered();
    const portal = new URL(aopd.services.config.portalUrl);
    const parsed = new SiweMessage(proof.signInMessage);
    expect(parsed).toMatchObject({ domain: portal.host, address: wallet.address, chainId: 1, version: "1" });
    expect(parsed.uri).toBe(`${portal.origin}${portal.pathname.replace(/\/+$/, "")}`);
    expect(parsed.nonce).toMatch(/^[0-9a-f]{24}$/);
    expect(Date.parse(parsed.expirationTime!)).toBeGreaterThan(Date.now());

    const sig = await wallet.signMessage(proof.signInMessage);
    const checked = await parsed.verify({ signature: sig, domain: portal.host, nonce: parsed.nonce });
    expect(checked.success).toBe(true);

    const answer = await postJson<{ proof: { status: string } }>(aopd, `${proof.token}/signature`, {
      signature: JSON.stringify({ address: wallet.address, msg: proof.signInMessage, sig }),
    });
    expect([answer.status, answer.body.proof.status]).toEqual([200, "VERIFIED"]);
    expect(await rowOf(proof.proof.id)).toEqual({ status: "VERIFIED", signature_scheme: "eip191", signed_message: proof.signInMessage, signature: sig });
    // The same submission again is the same success.
    const again = await postJson<{ proof: { status: string } }>(aopd, `${proof.token}/signature`, {
      signature: JSON.stringify({ address: wallet.address, msg: proof.signInMessage, sig }),
    });
    expect([again.status, again.body.proof.status]).toEqual([200, "VERIFIED"]);
  });

  it("accepts a bare signature over the offered sign-in message, and still the AOPP message's", async () => {
    const proof = await offered();
    const answer = await postJson<{ proof: { status: string } }>(aopd, `${proof.token}/signature`, {
      signature: await wallet.signMessage(proof.signInMessage),
    });
    expect([answer.status, answer.body.proof.status]).toEqual([200, "VERIFIED"]);
    expect((await rowOf(proof.proof.id)).signed_message).toBe(proof.signInMessage);

    const aopp = await offered();
    const viaAopp = await postJson<{ proof: { status: string } }>(aopd, `${aopp.token}/signature`, { signature: await wallet.signMessage(aopp.proof.message) });
    expect([viaAopp.status, viaAopp.body.proof.status]).toEqual([200, "VERIFIED"]);
    expect(await rowOf(aopp.proof.id)).toMatchObject({ status: "VERIFIED", signed_message: null });
  });

  it("refuses a signed sign-in message whose nonce was used, on another proof, and changes nothing", async () => {
    const first = await offered();
    const sig = await wallet.signMessage(first.signInMessage);
    expect(
      (await postJson(aopd, `${first.token}/signature`, { signature: JSON.stringify({ address: wallet.address, msg: first.signInMessage, sig }) })).status,
    ).toBe(200);

    const second = await offered();
    const answer = await postJson<Refusal>(aopd, `${second.token}/signature`, {
      signature: JSON.stringify({ address: wallet.address, msg: first.signInMessage, sig }),
    });
    expect([answer.status, answer.body.error]).toEqual([400, "wrong_message"]);
    expect(answer.body.reason).toMatch(/nonce [0-9a-f]{24} was already used by a verified signature; a nonce is accepted once/);
    expect(await rowOf(second.proof.id)).toEqual({ status: "PENDING", signature_scheme: null, signed_message: null, signature: null });
    // Nor does a message with this proof's nonce pass under another's.
    const unused = await offered();
    const foreign = variant(second.signInMessage, {});
    const crossed = await postJson<Refusal>(aopd, `${unused.token}/signature`, {
      signature: JSON.stringify({ address: wallet.address, msg: foreign, sig: await wallet.signMessage(foreign) }),
    });
    expect(crossed.body.reason).toMatch(/nonce [0-9a-f]{24} is not this proof's/);
  });

  it("refuses an expired sign-in message, as siwe does", async () => {
    const proof = await offered();
    const expired = variant(proof.signInMessage, {
      issuedAt: new Date(Date.now() - 120_000).toISOString(),
      expirationTime: new Date(Date.now() - 60_000).toISOString(),
    });
    const sig = await wallet.signMessage(expired);
    const bySiwe = await new SiweMessage(expired).verify({ signature: sig }, { suppressExceptions: true });
    expect([bySiwe.success, bySiwe.error?.type]).toEqual([false, "Expired message."]);
    const answer = await postJson<Refusal>(aopd, `${proof.token}/signature`, { signature: JSON.stringify({ address: wallet.address, msg: expired, sig }) });
    expect([answer.status, answer.body.error]).toEqual([400, "wrong_message"]);
    expect(answer.body.reason).toMatch(/^The sign-in message expired at \d{4}-/);
    expect((await rowOf(proof.proof.id)).status).toBe("PENDING");
  });

  it("refuses a sign-in message naming another domain, as relayed from another site", async () => {
    const proof = await offered();
    const relayed = variant(proof.signInMessage, { domain: "wallet-verify.example" });
    const sig = await wallet.signMessage(relayed);
    const answer = await postJson<Refusal>(aopd, `${proof.token}/signature`, { signature: JSON.stringify({ address: wallet.address, msg: relayed, sig }) });
    expect([answer.status, answer.body.error]).toEqual([400, "wrong_message"]);
    expect(answer.body.reason).toMatch(/^The sign-in message was requested by wallet-verify\.example, not by .+: it may have been relayed from another site\./);
    expect((await rowOf(proof.proof.id)).status).toBe("PENDING");
  });
});

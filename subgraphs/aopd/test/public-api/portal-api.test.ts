import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { p2wpkhAddress, publicKeyOf, signBip322PublicKeyHash, testSecretKey } from "../ownership/bitcoin-test-wallet.js";
import { portalApi, postJson, requestSatoshiProofFor, requestSignatureProof } from "../support/portal-client.js";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

const key = testSecretKey("portal bitcoin");
const address = p2wpkhAddress(publicKeyOf(key));

describe.each(databaseDrivers)("the portal API on %s", (driver) => {
  let aopd: TestAopd;
  beforeAll(async () => {
    aopd = await startTestAopd(driver, { config: { rateLimitPerCredential: 0, rateLimitPerClient: 0 } });
  });
  afterAll(async () => {
    await aopd?.close();
  });

  it("shows a signature proof's public view under its credential, without customer id or comment", async () => {
    // The default message names the customer id (the customer signs it, and the wallet shows it), so
    // this request brings its own message: what is checked is that no field carries either.
    const { token, proof, aoppUri } = await requestSignatureProof(aopd, {
      expectedAddress: address,
      format: "P2WPKH",
      xpubRequired: true,
      message: "Proof of control for the exchange, nonce 5b1f",
    });
    const answer = await portalApi(aopd, token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.body).toEqual({
      id: proof.id,
      kind: "signature",
      status: "PENDING",
      asset: { code: "DTI4H95J0R2X", name: "Bitcoin", symbol: "BTC", network: "bitcoin", addressFamily: "bitcoin", decimals: 8 },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      dueAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      address,
      signature: { format: "P2WPKH", message: proof.message, xpubRequired: true, aoppUri },
      satoshi: null,
    });
    const text = JSON.stringify(answer.body);
    expect(text).not.toContain("CUST-PORTAL");
    expect(text).not.toContain("internal note");
  });

  it("shows a Satoshi proof's amount, deposit address and payment URI", async () => {
    const { token, id, amount } = await requestSatoshiProofFor(aopd);
    const answer = await portalApi(aopd, token);
    expect(answer.status).toBe(200);
    const units = `0.${amount.padStart(8, "0")}`.replace(/0+$/, "");
    expect(answer.body).toMatchObject({
      id,
      kind: "satoshi",
      status: "PENDING",
      address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
      signature: null,
      satoshi: {
        amount,
        amountInUnits: units,
        depositAddress: "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h",
        paymentUri: `bitcoin:bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h?amount=${units}`,
        txId: null,
      },
    });
    expect(JSON.stringify(answer.body)).not.toMatch(/CUST-PORTAL|internal note/);
  });

  it("verifies a signature submitted on the portal", async () => {
    const { token, proof } = await requestSignatureProof(aopd, { expectedAddress: address });
    const signature = signBip322PublicKeyHash(key, address, proof.message);
    const answer = await postJson<{ proof: { status: string } }>(aopd, `${token}/signature`, { signature });
    expect(answer.status).toBe(200);
    expect(answer.body.proof).toMatchObject({ id: proof.id, status: "VERIFIED", address, dueAt: null });
  });
});

import { createHash } from "node:crypto";
import { createInternalTokenVerifier, generateInternalSigningKey, type Identity } from "@compliance-graph/identity";
import { ethereumAddressOf, pngImage, signPersonalMessage, testSecretKey } from "@compliance-graph/test-kit";
import { createLocalJWKSet, decodeProtectedHeader, errors, exportJWK, exportPKCS8, generateKeyPair, jwtVerify, type JSONWebKeySet, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aopdConfigFromEnv } from "../../src/aopd-config-from-env.js";
import { startAopd } from "../../src/start-aopd.js";
import { loadReceiptSigningKeys } from "../../src/receipts/receipt-signing-keys.js";
import { ReceiptSigner } from "../../src/receipts/receipt-signer.js";
import { startAopdWithOfficers, type AopdWithOfficers } from "../support/aopd-with-officers.js";
import { portalApi, postJson } from "../support/portal-client.js";
import { databaseDrivers } from "../support/test-database.js";

const bitcoin = "DTI4H95J0R2X";
const ether = "DTIX9J9K872S";
const address = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const deposit = "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h";
const etherKey = testSecretKey("receipt ether");
const etherAddress = ethereumAddressOf(etherKey);

const requester: Identity = { subject: "sa-requests", client: "intake-service", username: "service-account-intake", roles: ["proofs:read", "proofs:write"] };
const alice: Identity = {
  subject: "3f0c9a7e-alice",
  client: "compliance-console",
  username: "alice",
  roles: ["proofs:read", "proofs:assess", "proofs:export"],
};
const bob: Identity = { subject: "8d21b4c2-bob", client: "compliance-console", username: "bob", roles: ["proofs:read", "proofs:assess"] };

const issuer = "https://compliance.example.test";
const receiptFields = "jws keyId issuedAt expiresAt jwksPath issuer statement";
interface ReceiptAnswer {
  jws: string;
  keyId: string;
  issuedAt: string;
  expiresAt: string;
  jwksPath: string;
  issuer: string;
  statement: string;
}

/** An EC P-256 key pair as configuration holds it: the private JWK (with its kid) and the public one. */
async function receiptKey(kid: string): Promise<{ privateJwk: JWK; publicJwk: JWK }> {
  const pair = await generateKeyPair("ES256", { extractable: true });
  return { privateJwk: { ...(await exportJWK(pair.privateKey)), kid }, publicJwk: { ...(await exportJWK(pair.publicKey)), kid } };
}

describe.each(databaseDrivers)("proof receipts on %s", (driver) => {
  let aopd: AopdWithOfficers;
  let current: { privateJwk: JWK; publicJwk: JWK };
  let previous: { privateJwk: JWK; publicJwk: JWK };

  const run = async (identity: Identity, query: string, variables: Record<string, unknown> = {}) => {
    const { body } = await aopd.queryAs(identity, query, variables);
    if (body.errors) throw Object.assign(new Error(body.errors[0]!.message), { extensions: body.errors[0]!.extensions });
    return body.data!.aopd as Record<string, Record<string, unknown>>;
  };
  const receiptOf = async (id: string, identity = alice) =>
    (await run(identity, `query($id: ID!) { aopd { proofReceipt(id: $id) { ${receiptFields} } } }`, { id })).proofReceipt as unknown as ReceiptAnswer;
  /** The key set as anyone fetches it: over HTTP, without a token. */
  const fetchedKeySet = async () => {
    const response = await fetch(new URL("/.well-known/aopd-receipt-keys.json", aopd.url));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/jwk-set+json");
    return (await response.json()) as JSONWebKeySet;
  };
  /** The documented jose snippet (docs/receipts.md). */
  const verify = async (jws: string, keySet: JSONWebKeySet) =>
    jwtVerify(jws, createLocalJWKSet(keySet), { algorithms: ["ES256"], typ: "aopd-receipt+jwt", issuer });

  const mediaBytes = pngImage(24, 24, { seed: 7 });
  const verifiedMediaProof = async () => {
    const requested = (
      await run(requester, `mutation($input: AopdRequestMediaProofInput!) { aopd { requestMediaProof(input: $input) { id portalUrl } } }`, {
        input: { customerId: "CUST-RECEIPTS", asset: bitcoin, expectedAddress: address },
      })
    ).requestMediaProof!;
    const uploaded = await portalApi(aopd, `${String(requested.portalUrl).split("/").pop()}/media`, {
      method: "POST",
      headers: { "content-type": "image/png" },
      body: new Uint8Array(mediaBytes),
    });
    expect(uploaded.status).toBe(200);
    const decided = (
      await run(
        alice,
        `mutation($id: ID!) { aopd { assessMediaProof(id: $id, assessment: VERIFIED, comment: "address shown in the wallet app") { id decision { decidedAt } } } }`,
        { id: requested.id },
      )
    ).assessMediaProof!;
    return { id: String(requested.id), decidedAt: (decided.decision as { decidedAt: string }).decidedAt };
  };
  const submittedSatoshiProof = async () => {
    const requested = (
      await run(requester, `mutation($input: AopdRequestSatoshiProofInput!) { aopd { requestSatoshiProof(input: $input) { id } } }`, {
        input: { customerId: "CUST-RECEIPTS", asset: bitcoin, senderAddress: address, depositAddress: deposit },
      })
    ).requestSatoshiProof!;
    await run(requester, `mutation($id: ID!, $txId: String!) { aopd { finalizeSatoshiProof(id: $id, txId: $txId) { id } } }`, {
      id: requested.id,
      txId: "ef".repeat(32),
    });
    return String(requested.id);
  };

  beforeAll(async () => {
    [current, previous] = await Promise.all([receiptKey("receipts-2026"), receiptKey("receipts-2025")]);
    aopd = await startAopdWithOfficers(driver, {
      receipts: { signingKey: JSON.stringify(current.privateJwk), previousKeys: JSON.stringify({ keys: [previous.publicJwk] }), issuer, validityDays: 30 },
    });
  }, 180_000);
  afterAll(async () => {
    await aopd?.close();
  });

  it("issues a receipt for a verified media proof that verifies with the published keys and states the proof, its evidence hash and its decision", async () => {
    const { id, decidedAt } = await verifiedMediaProof();
    const receipt = await receiptOf(id);
    const keySet = await fetchedKeySet();
    // Only public parts are published: the current key first, then the previous one.
    expect(keySet.keys.map((key) => [key.kid, key.alg, "d" in key])).toEqual([
      ["receipts-2026", "ES256", false],
      ["receipts-2025", "ES256", false],
    ]);
    const { payload, protectedHeader } = await verify(receipt.jws, keySet);
    expect(protectedHeader).toEqual({ alg: "ES256", kid: "receipts-2026", typ: "aopd-receipt+jwt" });
    const statement = {
      id,
      address,
      asset: { code: bitcoin, name: "Bitcoin" },
      customerId: "CUST-RECEIPTS",
      method: { kind: "media" },
      evidenceHash: `sha256:${createHash("sha256").update(mediaBytes).digest("hex")}`,
      // The screening at issue: the bundled list, imported at start, does not name the address.
      screening: { status: "CLEAR", list: "OFAC SDN", listVersion: expect.any(String), provider: null },
      decision: {
        outcome: "VERIFIED",
        action: "DECIDED",
        decidedAt,
        decider: { subject: alice.subject, client: "compliance-console", username: "alice", system: false },
      },
    };
    expect(payload).toMatchObject({ iss: issuer, sub: id, proof: statement });
    expect(payload.exp! - payload.iat!).toBe(30 * 86_400);
    expect(receipt).toMatchObject({
      keyId: "receipts-2026",
      jwksPath: "/.well-known/aopd-receipt-keys.json",
      issuer,
      issuedAt: new Date(payload.iat! * 1_000).toISOString(),
    });
    expect(JSON.parse(Buffer.from(receipt.statement, "base64").toString("utf8"))).toEqual(statement);
  });

  it("states a signature proof's scheme and an evidence hash anyone can recompute from the proof", async () => {
    const requested = (
      await run(requester, `mutation($input: AopdRequestAoppProofInput!) { aopd { requestAoppProof(input: $input) { portalUrl proof { id message } } } }`, {
        input: { customerId: "CUST-RECEIPTS", asset: ether },
      })
    ).requestAoppProof!;
    const proof = requested.proof as { id: string; message: string };
    const signature = `0x${Buffer.from(signPersonalMessage(etherKey, proof.message)).toString("hex")}`;
    const accepted = await postJson(aopd, `${String(requested.portalUrl).split("/").pop()}/signature`, { address: etherAddress, signature });
    expect(accepted.status).toBe(200);
    const { payload } = await verify((await receiptOf(proof.id)).jws, await fetchedKeySet());
    const stored = (
      await run(alice, `query($id: ID!) { aopd { proof(id: $id) { address ... on AopdSignatureProof { message signature xpub } } } }`, { id: proof.id })
    ).proof as Record<string, string | null>;
    const evidence = JSON.stringify(["signature", stored.address, stored.message, stored.signature, stored.xpub]);
    expect(payload.proof).toMatchObject({
      method: { kind: "signature", signatureScheme: "EIP191" },
      evidenceHash: `sha256:${createHash("sha256").update(evidence).digest("hex")}`,
      decision: { outcome: "VERIFIED", action: "SIGNATURE_VERIFIED", decider: { subject: "system:signature-verification", system: true } },
    });
  });

  it("fails verification of a tampered receipt: another customer in the payload, or a signature of another receipt", async () => {
    const { id } = await verifiedMediaProof();
    const [one, other] = [await receiptOf(id), await receiptOf(id)];
    const keySet = await fetchedKeySet();
    const [header, payload, signature] = one.jws.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as { proof: { customerId: string } };
    claims.proof.customerId = "CUST-SOMEONE-ELSE";
    const forged = `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
    await expect(verify(forged, keySet)).rejects.toBeInstanceOf(errors.JWSSignatureVerificationFailed);
    const swapped = `${header}.${payload}.${other.jws.split(".")[2]}`;
    await expect(verify(swapped, keySet)).rejects.toBeInstanceOf(errors.JWSSignatureVerificationFailed);
    // The untouched one still verifies.
    await expect(verify(one.jws, keySet)).resolves.toBeTruthy();
  });

  it("refuses a receipt for a proof that is not VERIFIED, naming its status, and for an unknown id", async () => {
    const id = await submittedSatoshiProof();
    await expect(receiptOf(id)).rejects.toMatchObject({
      message: "The proof is SUBMITTED; a receipt is issued only for a VERIFIED proof.",
      extensions: { code: "CONFLICT", status: "SUBMITTED" },
    });
    await run(alice, `mutation($id: ID!) { aopd { assessSatoshiProof(id: $id, assessment: FAILED, reason: WRONG_AMOUNT) { id } } }`, { id });
    await expect(receiptOf(id)).rejects.toMatchObject({ message: "The proof is FAILED; a receipt is issued only for a VERIFIED proof." });
    await expect(receiptOf("00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({ extensions: { code: "NOT_FOUND" } });
  });

  it("refuses a caller without proofs:export", async () => {
    const { id } = await verifiedMediaProof();
    await expect(receiptOf(id, bob)).rejects.toMatchObject({ extensions: { code: "FORBIDDEN", requiredRole: "proofs:export" } });
  });

  it("rotation: a receipt signed by the previous key still verifies with the published set; one of an unpublished key does not", async () => {
    const { id } = await verifiedMediaProof();
    const statement = JSON.parse(Buffer.from((await receiptOf(id)).statement, "base64").toString("utf8"));
    // Signed as the deployment did before the rotation, when the previous key was its signing key.
    const before = new ReceiptSigner(
      await loadReceiptSigningKeys({ signingKey: JSON.stringify(previous.privateJwk), previousKeys: undefined, issuer, validityDays: 30 }, true),
      { issuer, validityDays: 30 },
    );
    const old = await before.sign(statement);
    expect(decodeProtectedHeader(old.jws).kid).toBe("receipts-2025");
    const { payload } = await verify(old.jws, await fetchedKeySet());
    expect(payload.proof).toEqual(statement);

    const stranger = await receiptKey("receipts-elsewhere");
    const elsewhere = new ReceiptSigner(
      await loadReceiptSigningKeys({ signingKey: JSON.stringify(stranger.privateJwk), previousKeys: undefined, issuer, validityDays: 30 }, true),
      { issuer, validityDays: 30 },
    );
    await expect(verify((await elsewhere.sign(statement)).jws, await fetchedKeySet())).rejects.toBeInstanceOf(errors.JWKSNoMatchingKey);
  });
});

describe("receipt key configuration", () => {
  const settings = { previousKeys: undefined, issuer, validityDays: 365 };

  it("production refuses to start without AOPD_RECEIPT_SIGNING_KEY, before opening anything", async () => {
    const key = await generateInternalSigningKey("production-key");
    await expect(
      startAopd({
        config: { port: 0, production: true, databaseUrl: "postgres://postgres@127.0.0.1:9/never", receipts: { ...settings, signingKey: undefined } },
        authenticate: createInternalTokenVerifier({ audience: "aopd", publicKeys: [key.publicJwk] }),
      }),
    ).rejects.toThrow(/^aopd refuses to start in production without AOPD_RECEIPT_SIGNING_KEY/);
  });

  it("reads its variables, refusing a validity outside 1 to 3650 days and naming the variable", () => {
    expect(
      aopdConfigFromEnv({ AOPD_RECEIPT_ISSUER: "https://x.example", AOPD_RECEIPT_VALIDITY_DAYS: "30", AOPD_RECEIPT_PREVIOUS_KEYS: "[]" }).receipts,
    ).toEqual({
      signingKey: undefined,
      previousKeys: "[]",
      issuer: "https://x.example",
      validityDays: 30,
      forListed: "refuse",
    });
    expect(aopdConfigFromEnv({ AOPD_RECEIPT_FOR_LISTED: "issue" }).receipts.forListed).toBe("issue");
    expect(() => aopdConfigFromEnv({ AOPD_RECEIPT_FOR_LISTED: "always" })).toThrow('AOPD_RECEIPT_FOR_LISTED must be refuse or issue; got "always".');
    expect(aopdConfigFromEnv({}).receipts).toMatchObject({ issuer: "compliance-graph-aopd", validityDays: 365 });
    for (const days of ["0", "3651", "1.5", "a year"]) {
      expect(() => aopdConfigFromEnv({ AOPD_RECEIPT_VALIDITY_DAYS: days })).toThrow(
        `AOPD_RECEIPT_VALIDITY_DAYS must be a whole number of days from 1 to 3650; got ${JSON.stringify(days)}.`,
      );
    }
  });

  it("takes a PKCS#8 PEM key (kid: its thumbprint) and, in development, generates one", async () => {
    const pair = await generateKeyPair("ES256", { extractable: true });
    const fromPem = await loadReceiptSigningKeys({ ...settings, signingKey: await exportPKCS8(pair.privateKey) }, true);
    expect(fromPem.generated).toBe(false);
    expect(fromPem.jwks.keys).toEqual([expect.objectContaining({ kty: "EC", crv: "P-256", x: (await exportJWK(pair.publicKey)).x, alg: "ES256", use: "sig" })]);
    expect(fromPem.current.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const generated = await loadReceiptSigningKeys({ ...settings, signingKey: undefined }, false);
    expect([generated.generated, generated.current.kid.startsWith("dev-receipt-")]).toEqual([true, true]);
  });

  it("refuses keys that are not EC P-256, never quoting the secret, and a previous key given with its private part", async () => {
    const secret = "-----BEGIN PRIVATE KEY-----\nnot-a-key-but-secret\n-----END PRIVATE KEY-----";
    const refusal = await loadReceiptSigningKeys({ ...settings, signingKey: secret }, false).then(
      () => "accepted",
      (error: Error) => error.message,
    );
    expect(refusal).toBe(
      "AOPD_RECEIPT_SIGNING_KEY must be an EC P-256 private key for ES256: PKCS#8 PEM (-----BEGIN PRIVATE KEY-----) or a private JWK (kty EC, crv P-256, with d).",
    );
    expect(refusal).not.toContain("not-a-key-but-secret");
    const { privateJwk, publicJwk } = await receiptKey("old");
    await expect(loadReceiptSigningKeys({ ...settings, signingKey: undefined, previousKeys: JSON.stringify([privateJwk]) }, false)).rejects.toThrow(
      "AOPD_RECEIPT_PREVIOUS_KEYS[0] carries a private key (d); publish only the public key: remove d, and keep the private key out of this variable.",
    );
    await expect(
      loadReceiptSigningKeys({ ...settings, signingKey: undefined, previousKeys: JSON.stringify([{ ...publicJwk, kid: undefined }]) }, false),
    ).rejects.toThrow("AOPD_RECEIPT_PREVIOUS_KEYS[0] needs its kid: the kid the receipts it signed name.");
  });
});

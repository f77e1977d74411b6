import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProofReceiptStatement } from "../../src/receipts/proof-receipt-claims.js";
import { loadReceiptSigningKeys, type ReceiptSigningKeys } from "../../src/receipts/receipt-signing-keys.js";
import { ReceiptSigner } from "../../src/receipts/receipt-signer.js";
import { verifyProofReceipt } from "../../src/receipts/verify-proof-receipt.js";

const issuer = "https://compliance.example.test";
const statement: ProofReceiptStatement = {
  id: "6f1b7a52-3c1e-4d0e-9a7b-2f4c8d9e0a1b",
  address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
  asset: { code: "DTI4H95J0R2X", name: "Bitcoin" },
  customerId: "CUST-1",
  method: { kind: "media" },
  evidenceHash: `sha256:${"ab".repeat(32)}`,
  screening: { status: "CLEAR", list: "OFAC SDN", listVersion: "2026-11-01", provider: null },
  decision: {
    outcome: "VERIFIED",
    action: "DECIDED",
    decidedAt: "2026-11-25T10:00:00.000Z",
    decider: { subject: "alice", client: "compliance-console", username: "alice", system: false },
  },
};
const claims = { proof: statement as unknown as Record<string, unknown> };

/**
 * Forged receipts: what an attacker who holds a real receipt and the public key set, but not the
 * private key, can try, each refused by the verifier the CLI uses (the same checks as the jose
 * snippet of docs/receipts.md: ES256 only, the receipt type, the key its kid names, exp, iss).
 */
describe("receipt forgery attacks", () => {
  let keys: ReceiptSigningKeys;
  let keySet: ReturnType<typeof createLocalJWKSet>;
  let genuine: string;
  let publicJwk: JWK;

  beforeAll(async () => {
    const pair = await generateKeyPair("ES256", { extractable: true });
    keys = await loadReceiptSigningKeys(
      { signingKey: JSON.stringify({ ...(await exportJWK(pair.privateKey)), kid: "real" }), previousKeys: undefined, issuer, validityDays: 1 },
      true,
    );
    keySet = createLocalJWKSet(keys.jwks);
    publicJwk = keys.jwks.keys[0]!;
    genuine = (await new ReceiptSigner(keys, { issuer, validityDays: 1 }).sign(statement)).jws;
  });
  const codeOf = (jws: string, now?: Date) =>
    verifyProofReceipt(jws, keySet, { issuer, ...(now ? { now } : {}) }).then(
      () => "verified",
      (error: { code?: string }) => error.code ?? String(error),
    );

  it("control: the genuine receipt verifies", async () => {
    expect(await codeOf(genuine)).toBe("verified");
  });

  it("a receipt dated in the future (iat 27 hours ahead, made to outlive its validity) is refused; clock skew up to 60 s is not", async () => {
    const signer = new ReceiptSigner(keys, { issuer, validityDays: 1 });
    const now = new Date();
    const ahead = (await signer.sign(statement, new Date(now.getTime() + 27 * 3_600_000))).jws;
    await expect(verifyProofReceipt(ahead, keySet, { issuer, now })).rejects.toMatchObject({
      code: "issued_in_future",
      message: expect.stringMatching(/more than 60 s after this clock's now\.$/),
    });
    expect(await codeOf((await signer.sign(statement, new Date(now.getTime() + 50_000))).jws, now)).toBe("verified");
  });

  it("an unsigned receipt (alg none) is refused", async () => {
    const unsigned = new UnsecuredJWT(claims).setIssuer(issuer).setSubject(statement.id).setJti("x").setIssuedAt().setExpirationTime("1d").encode();
    expect(await codeOf(unsigned)).toBe("wrong_algorithm");
  });

  it("algorithm confusion: an HS256 receipt keyed with the published public key is refused", async () => {
    const secret = new TextEncoder().encode(JSON.stringify(publicJwk));
    const hmac = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", kid: "real", typ: "aopd-receipt+jwt" })
      .setIssuer(issuer)
      .setSubject(statement.id)
      .setJti("x")
      .setIssuedAt()
      .setExpirationTime("1d")
      .sign(secret);
    expect(await codeOf(hmac)).toBe("wrong_algorithm");
  });

  it("the attacker's own key under the real kid, even with that key embedded in the header, is refused", async () => {
    const attacker = await generateKeyPair("ES256", { extractable: true });
    const embedded = await exportJWK(attacker.publicKey);
    const forged = await new SignJWT({ proof: { ...statement, customerId: "CUST-ATTACKER" } })
      .setProtectedHeader({ alg: "ES256", kid: "real", typ: "aopd-receipt+jwt", jwk: embedded })
      .setIssuer(issuer)
      .setSubject(statement.id)
      .setJti("x")
      .setIssuedAt()
      .setExpirationTime("1d")
      .sign(attacker.privateKey);
    expect(await codeOf(forged)).toBe("bad_signature");
  });

  it("a token of another type signed by the same key does not pass for a receipt", async () => {
    const otherType = await new SignJWT(claims)
      .setProtectedHeader({ alg: "ES256", kid: "real", typ: "JWT" })
      .setIssuer(issuer)
      .setSubject(statement.id)
      .setJti("x")
      .setIssuedAt()
      .setExpirationTime("1d")
      .sign(keys.current.privateKey);
    expect(await codeOf(otherType)).toBe("wrong_type");
  });

  it("an expired receipt is refused, and a receipt of another issuer", async () => {
    expect(await codeOf(genuine, new Date(Date.now() + 2 * 86_400_000))).toBe("expired");
    const elsewhere = await verifyProofReceipt(genuine, keySet, { issuer: "https://attacker.example" }).then(
      () => "verified",
      (error: { code: string }) => error.code,
    );
    expect(elsewhere).toBe("wrong_issuer");
  });

  it("a receipt cut or padded is refused", async () => {
    expect(await codeOf(genuine.split(".").slice(0, 2).join("."))).toBe("malformed");
    expect(await codeOf(`${genuine}.extra`)).toBe("malformed");
    expect(await codeOf(genuine.slice(0, -4))).toBe("bad_signature");
  });
});

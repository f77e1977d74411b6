import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { createRemoteJWKSet, errors, exportJWK, generateKeyPair, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/start-stack.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const issuer = "https://compliance.example.test";
const keysPath = "/.well-known/aopd-receipt-keys.json";

/** `npm run verify-receipt` as a user runs it (the script's command, in its own process), with its exit code and output. */
function verifyReceiptCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "subgraphs/aopd/src/cli/verify-receipt.ts", ...args],
      { cwd: root, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

/**
 * Receipts through the whole stack: issued through the gateway's `/graphql` with a token of the
 * development identity provider, and verified by an outsider with nothing but the key set the
 * gateway publishes without a token.
 */
describe("proof receipts through the gateway", () => {
  let stack: Stack;
  let token: string;
  let keysUrl: URL;

  const run = async (query: string, variables: Record<string, unknown> = {}) => {
    const { body } = await stack.query(query, token, variables);
    if (body.errors) throw Object.assign(new Error(body.errors[0]!.message), { extensions: body.errors[0]!.extensions });
    return body.data!.aopd as Record<string, Record<string, unknown>>;
  };
  const satoshiProof = async (decide: boolean) => {
    const requested = (
      await run(`mutation($input: AopdRequestSatoshiProofInput!) { aopd { requestSatoshiProof(input: $input) { id } } }`, {
        input: {
          customerId: "CUST-GATEWAY-RECEIPT",
          asset: "DTI4H95J0R2X",
          senderAddress: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
          depositAddress: "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h",
        },
      })
    ).requestSatoshiProof!;
    const id = String(requested.id);
    await run(`mutation($id: ID!) { aopd { finalizeSatoshiProof(id: $id, txId: "${"12".repeat(32)}") { id } } }`, { id });
    if (decide) await run(`mutation($id: ID!) { aopd { assessSatoshiProof(id: $id, assessment: VERIFIED, comment: "paid as asked") { id } } }`, { id });
    return id;
  };
  const receiptOf = async (id: string) =>
    (await run(`query($id: ID!) { aopd { proofReceipt(id: $id) { jws keyId jwksPath } } }`, { id })).proofReceipt as {
      jws: string;
      keyId: string;
      jwksPath: string;
    };

  beforeAll(async () => {
    const pair = await generateKeyPair("ES256", { extractable: true });
    stack = await startStack({
      realAopd: {
        databaseUrl: await createTestDatabase("receiptsgateway"),
        seedDemoProofs: 0,
        config: {
          receipts: {
            signingKey: JSON.stringify({ ...(await exportJWK(pair.privateKey)), kid: "gateway-test-key" }),
            previousKeys: undefined,
            issuer,
            validityDays: 365,
          },
        },
      },
    });
    token = await stack.fetchToken();
    keysUrl = new URL(keysPath, stack.gateway.baseUrl);
  }, 180_000);
  afterAll(() => stack?.close());

  it("publishes the key set at the gateway to anyone, without a token", async () => {
    const response = await fetch(keysUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/jwk-set+json");
    const keySet = (await response.json()) as { keys: Record<string, unknown>[] };
    expect(keySet.keys.map((key) => [key.kid, key.kty, key.crv, "d" in key])).toEqual([["gateway-test-key", "EC", "P-256", false]]);
    // Reading only: another method is refused before anything reaches aopd.
    expect((await fetch(keysUrl, { method: "POST", body: "{}" })).status).toBe(405);
  });

  it("issues a receipt through /graphql that jose verifies with the key set fetched from the gateway; a tampered one fails", async () => {
    const id = await satoshiProof(true);
    const receipt = await receiptOf(id);
    expect(receipt).toMatchObject({ keyId: "gateway-test-key", jwksPath: keysPath });
    // The documented snippet (docs/receipts.md), word for word but for the URL.
    const keys = createRemoteJWKSet(new URL(`${stack.gateway.baseUrl}${receipt.jwksPath}`));
    const { payload } = await jwtVerify(receipt.jws, keys, { algorithms: ["ES256"], typ: "aopd-receipt+jwt", issuer });
    expect(payload).toMatchObject({
      sub: id,
      proof: { id, customerId: "CUST-GATEWAY-RECEIPT", method: { kind: "satoshi" }, decision: { outcome: "VERIFIED", decider: { client: "dev-api-client" } } },
    });

    const [header, body, signature] = receipt.jws.split(".");
    const claims = JSON.parse(Buffer.from(body!, "base64url").toString("utf8")) as { proof: { address: string } };
    claims.proof.address = "bc1qattackerattackerattackerattackerattack";
    const tampered = `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
    await expect(jwtVerify(tampered, keys, { algorithms: ["ES256"], typ: "aopd-receipt+jwt", issuer })).rejects.toBeInstanceOf(
      errors.JWSSignatureVerificationFailed,
    );

    // The CLI: valid prints the statement and exits 0; tampered names the reason and exits 1.
    const valid = await verifyReceiptCli([receipt.jws, "--jwks", keysUrl.href, "--issuer", issuer]);
    expect(valid.code, valid.stderr).toBe(0);
    expect(JSON.parse(valid.stdout)).toMatchObject({
      valid: true,
      keyId: "gateway-test-key",
      issuer,
      statement: { id, address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4" },
    });
    const refused = await verifyReceiptCli([tampered, "--jwks", keysUrl.href]);
    expect([refused.code, refused.stderr.trim()]).toEqual([
      1,
      "The receipt does not verify (bad_signature): Its signature does not match its content: it was changed after signing, or signed by another key.",
    ]);
    const otherIssuer = await verifyReceiptCli([receipt.jws, "--jwks", keysUrl.href, "--issuer", "https://someone.else"]);
    expect([otherIssuer.code, otherIssuer.stderr.trim()]).toEqual([1, "The receipt does not verify (wrong_issuer): Its issuer (iss) is not the one expected."]);
  });

  it("publishes each receipt's status through the gateway without a token, revokes it when the proof is reopened, and verify-receipt says so", async () => {
    const id = await satoshiProof(true);
    const receipt = await receiptOf(id);
    const { payload } = await jwtVerify(receipt.jws, createRemoteJWKSet(keysUrl), { algorithms: ["ES256"], typ: "aopd-receipt+jwt", issuer });
    // The receipt states the screening at issue (the bundled list, imported at start) and where its status is.
    expect(payload).toMatchObject({
      proof: { screening: { status: "CLEAR", list: "OFAC SDN", listVersion: expect.any(String), provider: null } },
      status: `/.well-known/aopd-receipt-status/${String(payload.jti)}`,
    });
    const statusUrl = new URL(String(payload.status), stack.gateway.baseUrl);
    const before = await fetch(statusUrl);
    expect([before.status, before.headers.get("cache-control")]).toEqual([200, "no-store"]);
    expect(await before.json()).toMatchObject({ receiptId: payload.jti, proofId: id, status: "valid" });
    const valid = await verifyReceiptCli([receipt.jws, "--jwks", keysUrl.href, "--issuer", issuer]);
    expect(valid.code, valid.stderr).toBe(0);
    expect(JSON.parse(valid.stdout)).toMatchObject({ valid: true, status: { checked: true, status: "valid" } });

    await run(`mutation($id: ID!) { aopd { reopenProof(id: $id, reason: "the deposit address was mistyped") { id } } }`, { id });
    const after = (await (await fetch(statusUrl)).json()) as Record<string, unknown>;
    expect(after).toMatchObject({ status: "revoked", reason: "reopened", reasonText: expect.stringContaining("reopened") });
    expect(Date.parse(String(after.revokedAt))).toBeGreaterThanOrEqual(Date.parse(String(after.issuedAt)));
    const revoked = await verifyReceiptCli([receipt.jws, "--jwks", keysUrl.href, "--issuer", issuer]);
    expect([revoked.code, revoked.stderr.trim()]).toEqual([
      1,
      `The receipt is revoked (reopened) since ${String(after.revokedAt)}: ${String(after.reasonText)}`,
    ]);
    // Deciding it again does not bring the old receipt back.
    await run(`mutation($id: ID!) { aopd { assessSatoshiProof(id: $id, assessment: VERIFIED) { id } } }`, { id });
    expect(((await (await fetch(statusUrl)).json()) as Record<string, unknown>).status).toBe("revoked");

    // Where the status cannot be reached, the CLI says so (and still reports the signature valid).
    const unreachable = await verifyReceiptCli([receipt.jws, "--jwks", keysUrl.href, "--status-base", "http://127.0.0.1:9"]);
    expect(unreachable.code, unreachable.stderr).toBe(0);
    expect(unreachable.stderr).toMatch(
      /^The receipt's status could not be checked: http:\/\/127\.0\.0\.1:9\/\.well-known\/aopd-receipt-status\/.* could not be reached/,
    );
    expect(JSON.parse(unreachable.stdout)).toMatchObject({ valid: true, status: { checked: false } });
    // An id no receipt has: 404, nothing else told.
    expect((await fetch(new URL("/.well-known/aopd-receipt-status/6f1b7a52-3c1e-4d0e-9a7b-2f4c8d9e0a1b", stack.gateway.baseUrl))).status).toBe(404);
  });

  it("refuses, through the gateway, a receipt for a proof still in review", async () => {
    const id = await satoshiProof(false);
    const { body } = await stack.query(`query($id: ID!) { aopd { proofReceipt(id: $id) { jws } } }`, token, { id });
    expect(body.errors?.[0]).toMatchObject({
      message: "The proof is SUBMITTED; a receipt is issued only for a VERIFIED proof.",
      extensions: { code: "CONFLICT" },
    });
  });
});

/**
 * Security regressions of the gateway's bearer-token check, each written as the attack it stops.
 * Every refused request gets HTTP 401, `WWW-Authenticate: Bearer`, code UNAUTHENTICATED, no data,
 * and the same message whatever the reason.
 */
import { createHmac } from "node:crypto";
import { exportSPKI, importJWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDevSigningKey } from "@compliance-graph/dev-identity-provider";
import { base64url, decodeClaims, signToken } from "../support/craft-token.js";
import { startStack, type Stack } from "../support/start-stack.js";

const query = "{ trpd { vasps { name } } }";

describe("access token attacks on the gateway", () => {
  let stack: Stack;
  let providerKey: Awaited<ReturnType<typeof generateDevSigningKey>>;
  let genuine: string;
  const now = () => Math.floor(Date.now() / 1000);
  const claims = () => ({ ...decodeClaims(genuine), iat: now(), exp: now() + 300 });

  beforeAll(async () => {
    providerKey = await generateDevSigningKey("provider-key-1");
    stack = await startStack({ signingKeys: [providerKey] });
    genuine = await stack.fetchToken();
  });
  afterAll(() => stack?.close());

  async function expectRefused(token: string | undefined) {
    const { status, headers, body } = await stack.query(query, token);
    expect(status).toBe(401);
    expect(headers.get("www-authenticate")).toMatch(/^Bearer\b/);
    expect(body.data).toBeUndefined();
    expect(body.errors).toEqual([{ message: "A valid bearer token is required.", extensions: { code: "UNAUTHENTICATED" } }]);
  }

  it("accepts a genuine token (control)", async () => {
    const { status, body } = await stack.query(query, genuine);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
  });

  it("accepts a token crafted with the provider's own key (control for the crafted cases)", async () => {
    const { status } = await stack.query(query, await signToken(providerKey, claims()));
    expect(status).toBe(200);
  });

  it("refuses a request without a token", async () => {
    await expectRefused(undefined);
  });

  it("refuses a malformed token", async () => {
    await expectRefused("not-a-jwt");
    await expectRefused("eyJhbGciOiJSUzI1NiJ9.e30.AAAA");
  });

  it("refuses another authorization scheme", async () => {
    const response = await fetch(stack.gateway.url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Basic ${Buffer.from("dev-api-client:dev-secret").toString("base64")}` },
      body: JSON.stringify({ query }),
    });
    expect(response.status).toBe(401);
  });

  it("refuses an expired token", async () => {
    await expectRefused(await signToken(providerKey, { ...claims(), iat: now() - 7200, exp: now() - 3600 }));
  });

  it("refuses a token that is not yet valid", async () => {
    await expectRefused(await signToken(providerKey, { ...claims(), nbf: now() + 3600 }));
  });

  it("refuses a token of another issuer", async () => {
    await expectRefused(await signToken(providerKey, { ...claims(), iss: "http://attacker.example/auth/realms/dev" }));
  });

  it("refuses a token for another audience", async () => {
    await expectRefused(await signToken(providerKey, { ...claims(), aud: "some-other-api" }));
  });

  it("refuses a token whose signature does not match (claims changed after signing)", async () => {
    const [header, , signature] = genuine.split(".");
    const widened = base64url({ ...decodeClaims(genuine), sub: "someone-else" });
    await expectRefused(`${header}.${widened}.${signature}`);
  });

  it("refuses a token signed by another key under the provider's key id", async () => {
    const attackerKey = await generateDevSigningKey(providerKey.kid);
    await expectRefused(await signToken(attackerKey, claims()));
  });

  it('refuses an unsigned token (alg: "none")', async () => {
    await expectRefused(`${base64url({ alg: "none", typ: "at+jwt", kid: providerKey.kid })}.${base64url(claims())}.`);
  });

  it("refuses an HS256 token signed with the provider's public key as the secret", async () => {
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = providerKey;
    const publicPem = await exportSPKI((await importJWK(publicJwk, "RS256", { extractable: true })) as Parameters<typeof exportSPKI>[0]);
    for (const secret of [publicPem, JSON.stringify(publicJwk)]) {
      const signingInput = `${base64url({ alg: "HS256", typ: "at+jwt", kid: providerKey.kid })}.${base64url(claims())}`;
      const mac = createHmac("sha256", secret).update(signingInput).digest("base64url");
      await expectRefused(`${signingInput}.${mac}`);
    }
    // The same attack through a JWT library, with the public key's bytes as an HMAC key.
    const hmacKey = new TextEncoder().encode(publicPem);
    await expectRefused(await new SignJWT(claims()).setProtectedHeader({ alg: "HS256", kid: providerKey.kid }).sign(hmacKey));
  });

  it("refuses a token signed with an unknown key id", async () => {
    const attackerKey = await generateDevSigningKey("unknown-key-id");
    await expectRefused(await signToken(attackerKey, claims()));
  });

  it("refuses a token without exp", async () => {
    const { exp: _exp, ...withoutExpiry } = claims();
    await expectRefused(await signToken(providerKey, withoutExpiry));
  });

  it("refuses a token issued in the future beyond the clock tolerance", async () => {
    await expectRefused(await signToken(providerKey, { ...claims(), iat: now() + 3600, exp: now() + 3900 }));
  });

  it("accepts a token issued within the clock tolerance (control for the future iat)", async () => {
    const { status } = await stack.query(query, await signToken(providerKey, { ...claims(), iat: now() + 5, exp: now() + 300 }));
    expect(status).toBe(200);
  });

  it("refuses a token stamped to live longer than the maximum lifetime (24 hours by default)", async () => {
    await expectRefused(await signToken(providerKey, { ...claims(), iat: now(), exp: now() + 86_400 * 365 }));
    const { iat: _iat, ...withoutIssuedAt } = claims();
    await expectRefused(await signToken(providerKey, { ...withoutIssuedAt, exp: now() + 86_400 * 2 }));
  });

  it("refuses an ID token of the provider whose aud happens to match the API's audience", async () => {
    // What Keycloak signs for a login: header typ "JWT", claim typ "ID", aud the client it was issued to.
    const idToken = { ...claims(), typ: "ID", aud: stack.idp.audience, nonce: "n-0S6_WzA2Mj", auth_time: now() };
    await expectRefused(await signToken(providerKey, idToken, { typ: "JWT" }));
  });

  it("refuses a token of the provider that carries no access token marker at all", async () => {
    const { typ: _typ, ...unmarked } = claims() as ReturnType<typeof claims> & { typ?: unknown };
    await expectRefused(await signToken(providerKey, unmarked, { typ: "JWT" }));
  });

  it("accepts a Keycloak access token, marked by its typ claim alone (control for the ID token)", async () => {
    const { status } = await stack.query(query, await signToken(providerKey, { ...claims(), typ: "Bearer" }, { typ: "JWT" }));
    expect(status).toBe(200);
  });

  it("does not say why a token was refused", async () => {
    const expired = await stack.query(query, await signToken(providerKey, { ...claims(), exp: now() - 3600 }));
    const forged = await stack.query(query, "not-a-jwt");
    expect(expired.body).toEqual(forged.body);
  });
});

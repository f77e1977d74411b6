import { importJWK, SignJWT, type JWK, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UnauthenticatedError } from "@compliance-graph/errors";
import { createAccessTokenVerifier, type AccessTokenVerifierOptions } from "../src/authentication/access-token-verifier.js";
import { parseAccessTokenMarkers } from "../src/authentication/access-token-marker.js";
import { generateDevSigningKey, startDevIdentityProvider, type RunningDevIdentityProvider } from "@compliance-graph/dev-identity-provider";

/**
 * The gateway's access-token verifier against a real OIDC provider (the development one, whose
 * key signs the crafted tokens too): which tokens count as access tokens, and the clock it reads.
 */
describe("the access token verifier", () => {
  let idp: RunningDevIdentityProvider;
  let key: JWK;

  beforeAll(async () => {
    key = await generateDevSigningKey("verifier-test-key");
    idp = await startDevIdentityProvider({ signingKeys: [key] });
  });
  afterAll(() => idp?.close());

  const verifier = (options: Partial<AccessTokenVerifierOptions> = {}) => createAccessTokenVerifier({ issuer: idp.issuer, audience: idp.audience, ...options });
  const sign = async (claims: JWTPayload, typ: string) =>
    new SignJWT(claims).setProtectedHeader({ alg: "RS256", typ, kid: key.kid }).sign(await importJWK(key, "RS256"));
  const claimsAt = (seconds: number): JWTPayload => ({
    iss: idp.issuer,
    aud: idp.audience,
    sub: "user-1",
    azp: "dev-api-client",
    iat: seconds,
    exp: seconds + 300,
  });
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  it("accepts the provider's own access tokens with the default markers (RFC 9068's typ header and Keycloak's typ claim)", async () => {
    const response = await fetch(idp.tokenEndpoint, {
      method: "POST",
      body: new URLSearchParams({ client_id: "dev-api-client", client_secret: "dev-secret", grant_type: "client_credentials", scope: "openid" }),
    });
    const { access_token: token } = (await response.json()) as { access_token: string };
    expect((await verifier().verify(token)).client).toBe("dev-api-client");
  });

  it("accepts either default marker alone, the typ header compared as a media type", async () => {
    const claims = claimsAt(nowSeconds());
    expect((await verifier().verify(await sign(claims, "at+jwt"))).subject).toBe("user-1");
    expect((await verifier().verify(await sign(claims, "application/AT+JWT"))).subject).toBe("user-1");
    expect((await verifier().verify(await sign({ ...claims, typ: "Bearer" }, "JWT"))).subject).toBe("user-1");
  });

  it("refuses an ID token whose audience matches, and a token with no marker at all", async () => {
    const reasons: string[] = [];
    const verify = createAccessTokenVerifier({ issuer: idp.issuer, audience: idp.audience }, (reason) => reasons.push(reason));
    const claims = claimsAt(nowSeconds());
    await expect(verify.verify(await sign({ ...claims, typ: "ID" }, "JWT"))).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(verify.verify(await sign(claims, "JWT"))).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(reasons).toEqual(['not an access token (typ header "JWT", typ claim "ID")', 'not an access token (typ header "JWT", typ claim undefined)']);
  });

  it("takes the configured marker of a provider that sets neither default, or none at all when told so", async () => {
    const claims = claimsAt(nowSeconds());
    const cognito = verifier({ accessTokenMarkers: parseAccessTokenMarkers("claim:token_use=access") });
    expect((await cognito.verify(await sign({ ...claims, token_use: "access" }, "JWT"))).subject).toBe("user-1");
    await expect(cognito.verify(await sign({ ...claims, token_use: "id" }, "JWT"))).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(cognito.verify(await sign(claims, "at+jwt"))).rejects.toBeInstanceOf(UnauthenticatedError);
    const unmarked = verifier({ accessTokenMarkers: parseAccessTokenMarkers("none") });
    expect((await unmarked.verify(await sign(claims, "JWT"))).subject).toBe("user-1");
  });

  it("reads the clock it is given: token times and the cache of verified tokens", async () => {
    let now = Date.UTC(2031, 0, 1);
    const issuedAt = now / 1000;
    const token = await sign(claimsAt(issuedAt), "at+jwt");
    // Issued five years ahead of the machine's clock: refused by a verifier on the real clock.
    await expect(verifier().verify(token)).rejects.toBeInstanceOf(UnauthenticatedError);
    const frozen = verifier({ now: () => now });
    expect((await frozen.verify(token)).subject).toBe("user-1");
    // Past its exp (and the 10 s tolerance) on the given clock: no longer served, not even from the cache.
    now += 311_000;
    await expect(frozen.verify(token)).rejects.toBeInstanceOf(UnauthenticatedError);
  });
});

describe("OIDC_ACCESS_TOKEN_MARKERS", () => {
  it("reads header and claim markers, and none alone", () => {
    expect(parseAccessTokenMarkers("header:typ=at+jwt, claim:typ=Bearer")).toEqual([
      { place: "header", name: "typ", value: "at+jwt" },
      { place: "claim", name: "typ", value: "Bearer" },
    ]);
    expect(parseAccessTokenMarkers("none")).toEqual([]);
  });

  it("refuses anything else, naming the part and what is allowed", () => {
    expect(() => parseAccessTokenMarkers("typ=at+jwt")).toThrow(
      'OIDC_ACCESS_TOKEN_MARKERS: "typ=at+jwt" is not a marker; use header:<name>=<value> or claim:<name>=<value> (comma-separated), or none alone.',
    );
    expect(() => parseAccessTokenMarkers("none,claim:typ=Bearer")).toThrow(/"none" is not a marker/);
    expect(() => parseAccessTokenMarkers(" , ")).toThrow('OIDC_ACCESS_TOKEN_MARKERS names no marker; to check none, say "none".');
  });
});

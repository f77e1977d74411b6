import type { IncomingHttpHeaders } from "node:http";
import { importJWK, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import {
  defaultInternalTokenIssuer,
  internalTokenAlgorithm,
  internalTokenType,
  createInternalTokenMinter,
  createInternalTokenVerifier,
  generateInternalSigningKey,
  identityKey,
  publicJwkOf,
  type Identity,
} from "../src/index.js";

const identity: Identity = { subject: "user-1", client: "dev-api-client", username: "service-account-dev-api-client", roles: ["proofs:read"] };
const requestWith = (token: string | undefined): IncomingHttpHeaders => (token ? { authorization: `Bearer ${token}` } : {});

describe("internal identity tokens", () => {
  it("carry subject, client, username and roles from the gateway to the subgraph", async () => {
    const key = await generateInternalSigningKey();
    const mint = await createInternalTokenMinter({ privateJwk: key.privateJwk });
    const verify = createInternalTokenVerifier({ audience: "trpd", publicKeys: [key.publicJwk] });
    expect(await verify(requestWith(await mint(identity, "trpd")))).toEqual(identity);
  });

  it("are reused per identity and audience until shortly before they expire", async () => {
    let now = Date.UTC(2026, 0, 1);
    const key = await generateInternalSigningKey();
    const mint = await createInternalTokenMinter({ privateJwk: key.privateJwk, ttlSeconds: 120, renewBeforeSeconds: 30, now: () => now });
    const first = await mint(identity, "trpd");
    expect(await mint({ ...identity }, "trpd")).toBe(first);
    expect(await mint(identity, "aopd")).not.toBe(first);
    expect(await mint({ ...identity, roles: ["proofs:read", "travel-rule:read"] }, "trpd")).not.toBe(first);
    now += 89_000;
    expect(await mint(identity, "trpd")).toBe(first);
    now += 2_000;
    expect(await mint(identity, "trpd")).not.toBe(first);
  });

  it("are one token for the same caller whatever the order of its roles (identityKey, as the gateway's socket pool)", async () => {
    const key = await generateInternalSigningKey();
    const mint = await createInternalTokenMinter({ privateJwk: key.privateJwk });
    const both = { ...identity, roles: ["proofs:read", "travel-rule:read"] };
    const first = await mint(both, "trpd");
    expect(await mint({ ...both, roles: ["travel-rule:read", "proofs:read"] }, "trpd")).toBe(first);
    expect(identityKey({ ...both, roles: ["travel-rule:read", "proofs:read"] })).toBe(identityKey(both));
    expect(identityKey({ ...both, username: "someone-else" })).not.toBe(identityKey(both));
  });

  it("keep at most maxCachedTokens", async () => {
    let now = Date.UTC(2026, 0, 1);
    const key = await generateInternalSigningKey();
    const mint = await createInternalTokenMinter({ privateJwk: key.privateJwk, maxCachedTokens: 2, now: () => now });
    const first = await mint(identity, "a");
    await mint(identity, "b");
    const third = await mint(identity, "c");
    now += 1_000;
    // "c" is still cached; "a", the oldest, was evicted and is minted anew with a later iat.
    expect(await mint(identity, "c")).toBe(third);
    expect(await mint(identity, "a")).not.toBe(first);
  });

  it("are refused when the verifier trusts another key", async () => {
    const key = await generateInternalSigningKey();
    const other = await generateInternalSigningKey();
    const mint = await createInternalTokenMinter({ privateJwk: key.privateJwk });
    const verify = createInternalTokenVerifier({ audience: "trpd", publicKeys: [other.publicJwk] });
    await expect(verify(requestWith(await mint(identity, "trpd")))).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("are accepted under either key while the verifier trusts old and new during a rotation", async () => {
    const oldKey = await generateInternalSigningKey();
    const newKey = await generateInternalSigningKey();
    const verify = createInternalTokenVerifier({ audience: "trpd", publicKeys: [oldKey.publicJwk, newKey.publicJwk] });
    for (const key of [oldKey, newKey]) {
      const mint = await createInternalTokenMinter({ privateJwk: key.privateJwk });
      expect((await verify(requestWith(await mint(identity, "trpd")))).subject).toBe("user-1");
    }
  });

  it("refuse a verifier configured with a private key", async () => {
    const key = await generateInternalSigningKey();
    expect(() => createInternalTokenVerifier({ audience: "trpd", publicKeys: [key.privateJwk] })).toThrow(/public keys only/);
    expect(publicJwkOf(key.privateJwk)).toEqual(key.publicJwk);
  });

  it("keep every role name the gateway granted, a new domain's too, and drop what is not a role name", async () => {
    const key = await generateInternalSigningKey();
    const verify = createInternalTokenVerifier({ audience: "trpd", publicKeys: [key.publicJwk] });
    const token = await new SignJWT({ sub: "user-1", azp: "kyc-pipeline", roles: ["proofs:read", 7, { role: "admin" }, "kyc:review"] })
      .setProtectedHeader({ alg: internalTokenAlgorithm, typ: internalTokenType, kid: key.privateJwk.kid as string })
      .setIssuer(defaultInternalTokenIssuer)
      .setAudience("trpd")
      .setIssuedAt()
      .setExpirationTime("2m")
      .sign(await importJWK(key.privateJwk, internalTokenAlgorithm));
    expect((await verify(requestWith(token))).roles).toEqual(["proofs:read", "kyc:review"]);
  });
});

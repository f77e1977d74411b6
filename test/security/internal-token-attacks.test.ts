/**
 * Security regressions of the subgraphs' internal-token check: a caller who reaches a subgraph
 * directly, without the gateway, gets nothing. Each test is the attack it stops.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInternalTokenMinter, generateInternalSigningKey, type Identity } from "@compliance-graph/identity";
import { base64url } from "../support/craft-token.js";
import { postGraphQL, startStack, type Stack } from "../support/start-stack.js";

const query = "{ trpd { vasps { name } } }";
const caller: Identity = { subject: "attacker", client: "dev-api-client", roles: ["proofs:read", "travel-rule:read"] };

describe("direct subgraph calls with internal tokens", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  async function expectRefused(url: string, token: string | undefined) {
    const { status, headers, body } = await postGraphQL(url, query, token);
    expect(status).toBe(401);
    expect(headers.get("www-authenticate")).toBe("Bearer");
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  }

  it("answers a token the gateway's key minted for this subgraph (control)", async () => {
    const mint = await createInternalTokenMinter({ privateJwk: stack.internalKey.privateJwk });
    const { status, body } = await postGraphQL(stack.subgraphUrls.trpd, query, await mint(caller, "trpd"));
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
  });

  it("refuses a direct call without a token", async () => {
    await expectRefused(stack.subgraphUrls.trpd, undefined);
    await expectRefused(stack.subgraphUrls.aopd, undefined);
  });

  it("refuses a caller's OIDC access token sent straight to a subgraph", async () => {
    await expectRefused(stack.subgraphUrls.trpd, await stack.fetchToken());
  });

  it("refuses a forged token signed by another key under the gateway's key id", async () => {
    const attacker = await generateInternalSigningKey(stack.internalKey.privateJwk.kid);
    const mint = await createInternalTokenMinter({ privateJwk: attacker.privateJwk });
    await expectRefused(stack.subgraphUrls.trpd, await mint(caller, "trpd"));
  });

  it("refuses an unsigned token", async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: "compliance-graph-gateway", aud: "trpd", sub: "attacker", azp: "x", roles: caller.roles, iat: now, exp: now + 60 };
    await expectRefused(stack.subgraphUrls.trpd, `${base64url({ alg: "none", typ: "cg-internal+jwt" })}.${base64url(claims)}.`);
  });

  it("refuses an expired token", async () => {
    const mint = await createInternalTokenMinter({ privateJwk: stack.internalKey.privateJwk, now: () => Date.now() - 3_600_000 });
    await expectRefused(stack.subgraphUrls.trpd, await mint(caller, "trpd"));
  });

  it("refuses a token issued in the future beyond the clock tolerance", async () => {
    const mint = await createInternalTokenMinter({ privateJwk: stack.internalKey.privateJwk, now: () => Date.now() + 600_000 });
    await expectRefused(stack.subgraphUrls.trpd, await mint(caller, "trpd"));
  });

  it("refuses a token stamped to live longer than the maximum lifetime (1 hour by default)", async () => {
    const mint = await createInternalTokenMinter({ privateJwk: stack.internalKey.privateJwk, ttlSeconds: 86_400 * 365 });
    await expectRefused(stack.subgraphUrls.trpd, await mint(caller, "trpd"));
    await expectRefused(stack.subgraphUrls.aopd, await mint(caller, "aopd"));
  });

  it("refuses a token minted for another subgraph", async () => {
    const mint = await createInternalTokenMinter({ privateJwk: stack.internalKey.privateJwk });
    await expectRefused(stack.subgraphUrls.trpd, await mint(caller, "aopd"));
    await expectRefused(stack.subgraphUrls.aopd, await mint(caller, "trpd"));
  });

  it("refuses a token of another issuer signed with the gateway's key", async () => {
    const mint = await createInternalTokenMinter({ privateJwk: stack.internalKey.privateJwk, issuer: "someone-else" });
    await expectRefused(stack.subgraphUrls.trpd, await mint(caller, "trpd"));
  });

  it("refuses fields the token's roles do not allow, at the subgraph itself", async () => {
    const mint = await createInternalTokenMinter({ privateJwk: stack.internalKey.privateJwk });
    const { status, body } = await postGraphQL(stack.subgraphUrls.trpd, query, await mint({ ...caller, roles: ["proofs:read"] }, "trpd"));
    expect(status).toBe(200);
    expect(body.errors?.[0]).toMatchObject({
      message: 'Trpd.vasps requires the role "travel-rule:read".',
      extensions: { code: "FORBIDDEN", requiredRole: "travel-rule:read" },
    });
  });
});

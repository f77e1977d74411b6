import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeClaims } from "../support/craft-token.js";
import { startStack, type Stack } from "../support/start-stack.js";

const query = "{ trpd { vasps { name } } }";

describe("signing key rotation at the identity provider", () => {
  let stack: Stack;
  beforeAll(async () => {
    // No cooldown between JWKS fetches: the rotated key must be picked up on its first token.
    stack = await startStack({ jwksCooldownMs: 0 });
  });
  afterAll(() => stack?.close());

  it("accepts tokens of the new key without a gateway restart, and old tokens until they expire", async () => {
    const before = await stack.fetchToken();
    expect((await stack.query(query, before)).status).toBe(200);

    const { kid } = await stack.idp.rotateSigningKey();
    const after = await stack.fetchToken();
    const header = JSON.parse(Buffer.from(after.split(".")[0] ?? "", "base64url").toString()) as { kid: string };
    expect(header.kid).toBe(kid);
    expect(decodeClaims(after).iss).toBe(stack.idp.issuer);

    const fresh = await stack.query(query, after);
    expect(fresh.status).toBe(200);
    expect(fresh.body.errors).toBeUndefined();
    expect((await stack.query(query, before)).status).toBe(200);
  });
});

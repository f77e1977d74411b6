import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevIdentityProvider, type RunningDevIdentityProvider } from "@compliance-graph/dev-identity-provider";
import { CookieJar, pkcePair, step } from "../support/browserless-sign-in.js";

/**
 * The development provider's authorization code flow with PKCE, step by step as a browser takes
 * it (the console's browser test takes it in Chromium): authorization request, its own sign-in
 * page, the code at the redirect URI, tokens for the code, and a renewal with the refresh token.
 */
describe("the development identity provider's authorization code flow", () => {
  let idp: RunningDevIdentityProvider;
  let origin: string;
  beforeAll(async () => {
    idp = await startDevIdentityProvider();
    origin = new URL(idp.issuer).origin;
  });
  afterAll(() => idp?.close());

  it("signs a realm user in on its own page and issues Keycloak-shaped tokens with the user's roles, renewable by refresh token", async () => {
    const jar = new CookieJar();
    const { verifier, challenge } = pkcePair();
    // The realm says http://localhost:4000/*; the provider also takes that pattern on its own origin.
    const redirectUri = `${origin}/console/callback`;
    const authorize = `${idp.authorizationEndpoint}?${new URLSearchParams({ client_id: "compliance-graph-frontend", redirect_uri: redirectUri, response_type: "code", scope: "openid profile", state: "s1", code_challenge: challenge, code_challenge_method: "S256" })}`;
    const toLogin = await step(jar, authorize);
    expect(toLogin.status).toBe(303);
    const loginUrl = new URL(toLogin.headers.get("location") ?? "", idp.issuer).href;
    expect(new URL(loginUrl).pathname).toMatch(/^\/auth\/realms\/dev\/login\/[\w-]+$/);
    const form = await step(jar, loginUrl);
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(html).toContain('<label for="username">Username</label>');
    expect(html).toContain('<label for="password">Password</label>');

    const back = await step(jar, loginUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "demo-officer", password: "demo-password" }),
    });
    expect(back.status).toBe(303);
    const toClient = await step(jar, new URL(back.headers.get("location") ?? "", idp.issuer).href);
    expect(toClient.status).toBe(303);
    const callback = new URL(toClient.headers.get("location") ?? "");
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get("state")).toBe("s1");
    const code = callback.searchParams.get("code") ?? "";

    const token = async (fields: Record<string, string>) => {
      const response = await fetch(idp.tokenEndpoint, { method: "POST", body: new URLSearchParams({ client_id: "compliance-graph-frontend", ...fields }) });
      return { status: response.status, body: (await response.json()) as { access_token?: string; refresh_token?: string; id_token?: string; error?: string } };
    };
    // The code without its verifier is worthless (PKCE).
    expect((await token({ grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: pkcePair().verifier })).body.error).toBe(
      "invalid_grant",
    );
    const tokens = await token({ grant_type: "authorization_code", code: await freshCode(), redirect_uri: redirectUri, code_verifier: verifier });
    expect(tokens.status).toBe(200);
    const claims = decodeJwt(tokens.body.access_token ?? "");
    expect(claims).toMatchObject({
      iss: idp.issuer,
      aud: "compliance-graph",
      azp: "compliance-graph-frontend",
      preferred_username: "demo-officer",
      typ: "Bearer",
    });
    expect((claims.realm_access as { roles: string[] }).roles).toEqual(
      expect.arrayContaining(["proofs:read", "proofs:export", "proofs:write", "proofs:assess"]),
    );
    expect(decodeJwt(tokens.body.id_token ?? "")).toMatchObject({ sub: claims.sub, preferred_username: "demo-officer" });

    const renewed = await token({ grant_type: "refresh_token", refresh_token: tokens.body.refresh_token ?? "" });
    expect(renewed.status).toBe(200);
    expect(decodeJwt(renewed.body.access_token ?? "")).toMatchObject({ sub: claims.sub, preferred_username: "demo-officer", aud: "compliance-graph" });

    // A code is good once; the failed attempt above used it up, so a second sign-in (no page: the session is on) gives a new one.
    async function freshCode(): Promise<string> {
      const again = await step(jar, authorize);
      const location = new URL(again.headers.get("location") ?? "", idp.issuer);
      const final = location.searchParams.get("code") ? location : new URL((await step(jar, location.href)).headers.get("location") ?? "", idp.issuer);
      return final.searchParams.get("code") ?? "";
    }
  });

  // Browsers hold the redirect that answers a form to the page's form-action; it ends at the client, which is another
  // origin when the provider runs apart from the console (deploy/stack/stack.yaml: 4080 and 4000).
  it("lets its sign-in form lead to the client's registered origin, and to no other", async () => {
    const loginPolicy = async (redirectUri: string) => {
      const jar = new CookieJar();
      const authorize = `${idp.authorizationEndpoint}?${new URLSearchParams({ client_id: "compliance-graph-frontend", redirect_uri: redirectUri, response_type: "code", scope: "openid", state: "s2", code_challenge: pkcePair().challenge, code_challenge_method: "S256" })}`;
      const toLogin = await step(jar, authorize);
      if (toLogin.status !== 303) return `refused with ${toLogin.status}`;
      const form = await step(jar, new URL(toLogin.headers.get("location") ?? "", idp.issuer).href);
      return form.headers.get("content-security-policy")?.match(/form-action [^;]*/)?.[0];
    };
    expect(await loginPolicy("http://localhost:4000/console/")).toBe("form-action 'self' http://localhost:4000");
    expect(await loginPolicy(`${origin}/console/`)).toBe(`form-action 'self' ${origin}`);
    expect(await loginPolicy("http://attacker.example/console/")).toMatch(/^refused with 4\d\d$/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevIdentityProvider, type RunningDevIdentityProvider } from "@compliance-graph/dev-identity-provider";
import { CookieJar, pkcePair, step } from "../support/browserless-sign-in.js";

/**
 * Attacks on the development identity provider's sign-in (the officer console's authorization
 * code flow), each written as the attacker would try it.
 */
describe("attacks on the development sign-in", () => {
  let idp: RunningDevIdentityProvider;
  let origin: string;
  beforeAll(async () => {
    idp = await startDevIdentityProvider();
    origin = new URL(idp.issuer).origin;
  });
  afterAll(() => idp?.close());

  const authorize = (fields: Record<string, string>) =>
    `${idp.authorizationEndpoint}?${new URLSearchParams({ client_id: "compliance-graph-frontend", response_type: "code", scope: "openid", state: "s", code_challenge_method: "S256", code_challenge: pkcePair().challenge, ...fields })}`;

  it("never sends a code to a redirect URI outside the realm's patterns (open redirect, code theft)", async () => {
    for (const redirectUri of [
      "https://evil.example/console/callback",
      `${origin}.evil.example/console/callback`,
      "http://localhost:40001/console/callback",
      `${origin}/console/callback#frag`,
    ]) {
      const response = await step(new CookieJar(), authorize({ redirect_uri: redirectUri }));
      expect(response.status, redirectUri).toBe(400);
      expect(response.headers.get("location"), redirectUri).toBeNull();
    }
  });

  it("refuses a public client's authorization request without PKCE", async () => {
    const url = new URL(authorize({ redirect_uri: `${origin}/console/callback` }));
    url.searchParams.delete("code_challenge");
    url.searchParams.delete("code_challenge_method");
    const response = await step(new CookieJar(), url.href);
    const location = new URL(response.headers.get("location") ?? "", origin);
    expect(location.searchParams.get("error")).toBe("invalid_request");
    expect(location.searchParams.get("code")).toBeNull();
  });

  it("cannot be framed, runs no script, and answers a wrong password and an unknown user alike", async () => {
    const jar = new CookieJar();
    const toLogin = await step(jar, authorize({ redirect_uri: `${origin}/console/callback` }));
    const loginUrl = new URL(toLogin.headers.get("location") ?? "", origin).href;
    const page = await step(jar, loginUrl);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    const attempt = async (username: string, password: string) => {
      const response = await step(jar, loginUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username, password }),
      });
      return { status: response.status, text: (await response.text()).replace(/value="[^"]*"/, "") };
    };
    const wrongPassword = await attempt("demo-officer", "guess");
    const unknownUser = await attempt("nobody", "guess");
    expect(wrongPassword.status).toBe(401);
    expect(unknownUser).toEqual(wrongPassword);
    // Markup in a username comes back as text.
    expect(
      await step(jar, loginUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username: '"><script>alert(1)</script>', password: "x" }),
      }).then((r) => r.text()),
    ).not.toContain("<script>");
  });

  it("refuses a sign-in form posted without the interaction's cookie (cross-site login)", async () => {
    const toLogin = await step(new CookieJar(), authorize({ redirect_uri: `${origin}/console/callback` }));
    const loginUrl = new URL(toLogin.headers.get("location") ?? "", origin).href;
    const forged = await step(new CookieJar(), loginUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "demo-officer", password: "demo-password" }),
    });
    expect(forged.status).toBe(400);
    expect(forged.headers.get("location")).toBeNull();
  });
});

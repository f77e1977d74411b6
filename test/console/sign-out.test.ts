import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { launchBrowser } from "../portal/support/browser.js";
import { signedIn, slow } from "./support/officer-pages.js";
import { startConsoleStack, type ConsoleStack } from "./support/start-console-stack.js";

/**
 * Signing out in Chromium against the whole stack: one click ends the provider's session (OIDC
 * RP-initiated logout with `id_token_hint` and `post_logout_redirect_uri`) and comes back to the
 * console, which asks for a new sign-in; no unstyled "Do you want to sign-out" page on the way.
 */
describe("signing out of the officer console", { timeout: 180_000 }, () => {
  let stack: ConsoleStack;
  let browser: Browser;
  beforeAll(async () => {
    stack = await startConsoleStack({ databaseUrl: await createTestDatabase("console_sign_out") });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("signs out with one click and lands on the sign-in page, the provider's session ended", async () => {
    const page = await signedIn(browser, stack, "/console/");
    const visited: string[] = [];
    page.on("request", (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) visited.push(request.url());
    });
    await page.getByRole("button", { name: "Sign out" }).click();
    // No page waits for a second click: the sign-in page comes by itself (the old unstyled question would stop here).
    await page.getByLabel("Username").waitFor(slow);
    expect(new URL(page.url()).pathname).toMatch(/\/login\//);
    // The end-session request carried the ID token and the way back to the console.
    const endSession = visited
      .map((url) => new URL(url))
      .find((url) => url.pathname.endsWith("/protocol/openid-connect/logout") && url.searchParams.has("id_token_hint"));
    expect(endSession?.searchParams.get("post_logout_redirect_uri")).toBe(`${stack.baseUrl}/console/`);
    expect(await page.content()).not.toContain("Do you want to sign-out");
    // Signed out for real: the console asks for a sign-in again rather than passing through.
    await page.goto(`${stack.baseUrl}/console/`);
    await page.getByLabel("Username").waitFor(slow);
  });
});

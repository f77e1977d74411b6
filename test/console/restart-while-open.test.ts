import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { launchBrowser } from "../portal/support/browser.js";
import { signedIn, slow } from "./support/officer-pages.js";
import { startConsoleStack, type ConsoleStack } from "./support/start-console-stack.js";

/**
 * `npm start` stopped and started again while an officer has the console open (issue 37, item 7):
 * the identity provider comes back with new keys and no sessions, so the live connection's token is
 * refused. The console must not say "Reconnecting…" for ever: it asks for a new token, is sent to
 * sign in, and what was typed on the screen is there again after signing in, with the live
 * connection up.
 */
describe("the console across a restart of the stack", { timeout: 300_000 }, () => {
  let stack: ConsoleStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startConsoleStack({ databaseUrl: await createTestDatabase("console_restart") });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("signs in again and gives back the typed text and the live connection", async () => {
    const page = await signedIn(browser, stack, "/console/request?kind=media");
    const connection = page.locator(".connection");
    await expect.poll(() => connection.textContent(), { timeout: 60_000 }).toBe("Live");
    await page.getByLabel("Customer id").fill("CUST-ACROSS-RESTART");

    await stack.restartIdentityProviderAndGateway();

    // Refused with the old token (4401), the console asks for a new one, the provider knows no
    // session any more: the sign-in page, within the reconnection's backoff.
    await page.getByLabel("Username").waitFor({ timeout: 120_000 });
    await page.getByLabel("Username").fill("demo-officer", slow);
    await page.getByLabel("Password").fill("demo-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByLabel("Customer id").waitFor(slow);
    expect(new URL(page.url()).pathname).toBe("/console/request");
    await expect.poll(() => page.getByLabel("Customer id").inputValue(), { timeout: 30_000 }).toBe("CUST-ACROSS-RESTART");
    await expect.poll(() => connection.textContent(), { timeout: 60_000 }).toBe("Live");
  });
});

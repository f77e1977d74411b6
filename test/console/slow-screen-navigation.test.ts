import type { Browser, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { launchBrowser } from "../portal/support/browser.js";
import { signedIn, slow, uploadedMediaProof } from "./support/officer-pages.js";
import { startConsoleStack, type ConsoleStack } from "./support/start-console-stack.js";

/**
 * The console's router and a screen still loading: a proof's detail whose query is held back (as on
 * a slow network) while the officer opens the overview must not draw over the overview when its
 * answer comes at last, nor keep a live listener that would draw it later.
 */
describe("a slow screen overtaken by a newer one", { timeout: 240_000 }, () => {
  let stack: ConsoleStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startConsoleStack({ databaseUrl: await createTestDatabase("console_slow_screen") });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("keeps the screen opened last when the one opened before it finishes loading", async () => {
    const id = await uploadedMediaProof(stack, `CUST-SLOW-${Date.now()}`);
    const page = await signedIn(browser, stack, "/console/");
    await page.getByRole("table", { name: "Proofs" }).getByRole("link", { name: id }).waitFor(slow);

    // The detail's query is held until the test lets it go.
    let held!: () => void;
    const caught = new Promise<void>((resolve) => (held = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/graphql", async (route) => {
      if (route.request().postData()?.includes("query Detail")) {
        held();
        await released;
      }
      await route.continue();
    });

    await page.getByRole("table", { name: "Proofs" }).getByRole("link", { name: id }).click();
    await caught;
    await page.getByRole("heading", { level: 1, name: `Proof ${id}` }).waitFor(slow);
    // The officer does not wait: back to the overview, which loads in full.
    await page.getByRole("navigation").getByRole("link", { name: "Proofs" }).click();
    await page.getByRole("table", { name: "Proofs" }).getByRole("link", { name: id }).waitFor(slow);

    const answered: Promise<Response> = page.waitForResponse((response) => response.request().postData()?.includes("query Detail") === true);
    release();
    await (await answered).finished();
    // End marker: a round trip the page makes after the held answer arrived, by which time its screen has drawn whatever it draws.
    await page.evaluate(async () => void (await fetch("/console/", { cache: "no-store" })).text());

    const main = page.getByRole("main");
    expect(await main.getByRole("heading", { level: 1 }).allTextContents()).toEqual(["Proofs"]);
    expect(await main.getByRole("region", { name: "Overview" }).count()).toBe(0);
    await main.getByRole("table", { name: "Proofs" }).getByRole("link", { name: id }).waitFor(slow);
  });
});

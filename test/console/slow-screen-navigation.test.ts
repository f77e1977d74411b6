import { mkdirSync } from "node:fs";
import type { Browser, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { launchBrowser } from "../portal/support/browser.js";
import { signedIn, slow, uploadedMediaProof } from "./support/officer-pages.js";
import { startConsoleStack, type ConsoleStack } from "./support/start-console-stack.js";

const folder = new URL("../../test-artifacts/screens/desktop/", import.meta.url);

/**
 * The console's router and a screen still loading: a proof's detail whose query is held back at the
 * ingress (as on a slow network, or a slow aopd) while the officer opens the overview. Leaving the
 * detail aborts its query, so neither the browser nor the server waits on for an answer nobody
 * will read; the abort is no failure of the officer's, so the overview shows no error for it. The
 * same for a read of the overview a newer one (after a second live event) supersedes.
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

  it("aborts the query of the screen the officer left, and the screen opened instead shows no error", async () => {
    const id = await uploadedMediaProof(stack, `CUST-SLOW-${Date.now()}`);
    const page = await signedIn(browser, stack, "/console/");
    await page.getByRole("table", { name: "Proofs" }).getByRole("link", { name: id }).waitFor(slow);

    // The detail's query is held at the ingress until the test lets it go.
    const held = stack.holdOperation("Detail");
    const isDetail = (request: Request) => request.postData()?.includes("query Detail") === true;
    const failed = page.waitForEvent("requestfailed", { predicate: isDetail, ...slow });
    await page.getByRole("table", { name: "Proofs" }).getByRole("link", { name: id }).click();
    await held.reached;
    await page.getByRole("heading", { level: 1, name: `Proof ${id}` }).waitFor(slow);

    // The officer does not wait: back to the overview, which loads in full.
    await page.getByRole("navigation").getByRole("link", { name: "Proofs" }).click();
    // The browser aborted the detail's query, and the server saw its connection close unanswered.
    expect((await failed).failure()?.errorText).toBe("net::ERR_ABORTED");
    await held.abandoned;
    held.release();

    const main = page.getByRole("main");
    await main.getByRole("table", { name: "Proofs" }).getByRole("link", { name: id }).waitFor(slow);
    expect(await main.getByRole("heading", { level: 1 }).allTextContents()).toEqual(["Proofs"]);
    expect(await main.getByRole("region", { name: "Overview" }).count()).toBe(0);
    expect(await main.getByText("The request failed", { exact: false }).count()).toBe(0);
    expect(await main.getByText("Refused:", { exact: false }).count()).toBe(0);
    expect(await main.getByRole("status").allTextContents()).not.toContain("Loading…");
    mkdirSync(folder, { recursive: true });
    await page.screenshot({ path: new URL("overview-after-abandoned-detail.png", folder).pathname, fullPage: true });
    // Closed, so that its overview's reads (on the next test's live events) are not the ones held there.
    await page.context().close();
  });

  it("aborts a read of the overview that a newer one supersedes, and shows the newer one's answer without an error", async () => {
    const page = await signedIn(browser, stack, "/console/");
    await page.getByRole("table", { name: "Proofs" }).waitFor(slow);

    // A proof created elsewhere: the live event reads the overview again, and that read is held.
    const held = stack.holdOperation("Overview");
    const isOverview = (request: Request) => request.postData()?.includes("query Overview") === true;
    const failed = page.waitForEvent("requestfailed", { predicate: isOverview, ...slow });
    const first = await uploadedMediaProof(stack, `CUST-FIRST-${Date.now()}`);
    await held.reached;
    // Another one while that read is still out: its read supersedes the held one, which is aborted.
    const second = await uploadedMediaProof(stack, `CUST-SECOND-${Date.now()}`);
    expect((await failed).failure()?.errorText).toBe("net::ERR_ABORTED");
    await held.abandoned;
    held.release();

    const table = page.getByRole("main").getByRole("table", { name: "Proofs" });
    await table.getByRole("link", { name: second }).waitFor(slow);
    await table.getByRole("link", { name: first }).waitFor(slow);
    expect(await page.getByRole("main").getByText("The request failed", { exact: false }).count()).toBe(0);
  });
});

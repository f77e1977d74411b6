import { mkdirSync } from "node:fs";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, pngImage } from "@compliance-graph/test-kit";
import { launchBrowser, openPage } from "../portal/support/browser.js";
import { apiQuery, bitcoin, bitcoinAddress, credentialOf, reportedSatoshiProof, signedIn, slow, uploadedMediaProof } from "./support/officer-pages.js";
import { startConsoleStack, type ConsoleStack } from "./support/start-console-stack.js";

/** Where the screenshots land: a folder of the test run's artifacts (test-artifacts/ is not committed). */
const folder = new URL("../../test-artifacts/screens/", import.meta.url);
const listedAddress = "13JtX4h7G5ZuNK5mFudKGq9DHLvvMFuNuz";

const sizes: Record<string, BrowserContextOptions> = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
};

/**
 * Every screen of the console and the portal at 1280x800 and on a 390x844 phone, each written as
 * a screenshot to test-artifacts/screens/<size>/ for a person to look at, and checked for what a
 * screenshot shows badly: a page wider than the phone, and a filter form that leaves the table
 * below the fold of a 1280x800 screen.
 */
describe("every screen at 1280x800 and 390x844", { timeout: 600_000 }, () => {
  let stack: ConsoleStack;
  let browser: Browser;
  const ids: Record<string, string> = {};
  const portalLinks: Record<string, string> = {};

  beforeAll(async () => {
    stack = await startConsoleStack({ databaseUrl: await createTestDatabase("console_screens") });
    browser = await launchBrowser();
    const customer = `CUST-SCREENS-${Date.now()}`;
    ids.submittedMedia = await uploadedMediaProof(stack, customer, pngImage(320, 200, { pixels: true }));
    ids.listed = await uploadedMediaProof(stack, customer, pngImage(64, 48), listedAddress);
    ids.satoshi = (await reportedSatoshiProof(stack, customer)).id;
    ids.verified = await uploadedMediaProof(stack, customer, pngImage(64, 48));
    await apiQuery(stack, `mutation($id: ID!) { aopd { assessMediaProof(id: $id, assessment: VERIFIED, comment: "address readable") { id } } }`, {
      id: ids.verified,
    });
    for (const kind of ["signature", "media"] as const) {
      const input =
        kind === "signature"
          ? { customerId: customer, asset: bitcoin, expectedAddress: bitcoinAddress }
          : { customerId: customer, asset: bitcoin, expectedAddress: bitcoinAddress };
      const field = kind === "signature" ? "requestAoppProof" : "requestMediaProof";
      const selection = kind === "signature" ? "portalUrl proof { id }" : "portalUrl id";
      const type = kind === "signature" ? "AopdRequestAoppProofInput" : "AopdRequestMediaProofInput";
      const data = await apiQuery<{ aopd: Record<string, { portalUrl: string; id?: string; proof?: { id: string } }> }>(
        stack,
        `mutation($input: ${type}!) { aopd { ${field}(input: $input) { ${selection} } } }`,
        { input },
      );
      const answer = data.aopd[field]!;
      portalLinks[kind] = answer.portalUrl;
      ids[`pending-${kind}`] = answer.id ?? answer.proof!.id;
    }
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function shoot(page: Page, size: string, name: string): Promise<void> {
    const target = new URL(`${size}/`, folder);
    mkdirSync(target, { recursive: true });
    await page.screenshot({ path: new URL(`${name}.png`, target).pathname, fullPage: true });
    if (size === "phone") {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${name} is wider than the phone`).toBeLessThanOrEqual(1);
    }
  }
  /** Goes to a console path in the signed-in page and waits for its first heading and for loading to end. */
  async function visit(page: Page, path: string): Promise<void> {
    await page.evaluate((target) => {
      history.pushState(null, "", target);
      dispatchEvent(new PopStateEvent("popstate"));
    }, path);
    await page.getByRole("main").getByRole("heading", { level: 1 }).waitFor(slow);
    await page.waitForFunction(() => !/Loading…|Wird geladen…/.test(document.querySelector("main")?.textContent ?? ""), undefined, slow);
  }

  for (const [size, options] of Object.entries(sizes)) {
    it(`shows the officer's screens at ${size} size`, async () => {
      const page = await signedIn(browser, stack, "/console/", "demo-officer", options);
      await page.getByRole("table", { name: "Proofs" }).waitFor(slow);
      if (size === "desktop") {
        // The filter form leaves room for the table: its first rows are on the first screen.
        const form = await page.getByRole("search", { name: "Filter proofs" }).boundingBox();
        expect(form!.height).toBeLessThan(220);
        const firstRows = await page
          .getByRole("table", { name: "Proofs" })
          .locator("tbody tr")
          .evaluateAll((rows) => rows.slice(0, 3).map((row) => row.getBoundingClientRect().bottom));
        for (const bottom of firstRows) expect(bottom).toBeLessThan(800);
        // The export card ends just under its button, with no empty band below it while nothing is exported.
        const exportCard = await page.getByRole("region", { name: "Export" }).boundingBox();
        const exportButton = await page.getByRole("region", { name: "Export" }).getByRole("button", { name: "Export as XLSX" }).boundingBox();
        expect(exportCard!.y + exportCard!.height - (exportButton!.y + exportButton!.height)).toBeLessThan(16);
      }
      await shoot(page, size, "console-overview");
      await page.getByText("More filters").click();
      await shoot(page, size, "console-overview-more-filters");
      await visit(page, "/console/?page=999");
      await page
        .getByRole("status")
        .filter({ hasText: /page \d+ of \d+/ })
        .waitFor(slow);
      expect(await page.getByRole("status").filter({ hasText: "page 999" }).count()).toBe(0);
      await visit(page, "/console/review");
      await shoot(page, size, "console-review-queue");
      for (const kind of ["signature", "satoshi", "media"]) {
        await visit(page, `/console/request?kind=${kind}`);
        await shoot(page, size, `console-request-${kind}`);
      }
      await page.getByRole("button", { name: "Request proof" }).click();
      await page.getByRole("alert").filter({ hasText: "Customer id: enter a value." }).waitFor(slow);
      await shoot(page, size, "console-request-missing-fields");
      await page.getByLabel("Customer id").fill(`CUST-SCREENS-LISTED-${size}`);
      await page.getByLabel(/^Find an asset/).fill("bitcoin btc native");
      await page.getByLabel("Asset", { exact: true }).selectOption(bitcoin);
      await page.getByLabel("Expected address").fill(listedAddress);
      await page.getByRole("button", { name: "Request proof" }).click();
      await page.getByRole("alertdialog").waitFor(slow);
      await shoot(page, size, "console-request-listed-confirmation");
      await page.getByRole("button", { name: "Request anyway" }).click();
      await page.getByRole("region", { name: "Requested proof" }).waitFor(slow);
      await shoot(page, size, "console-request-result");
      for (const [name, id] of Object.entries(ids)) {
        await visit(page, `/console/proofs/${id}`);
        await shoot(page, size, `console-detail-${name}`);
      }
      // The language is switched on the overview itself: it renders the screen again in German.
      await visit(page, "/console/");
      await page.getByLabel("Language").selectOption("de");
      // Every word in German, "Live" and "Screening" too.
      await page
        .getByRole("status")
        .filter({ hasText: /^Verbunden$/ })
        .waitFor(slow);
      await page.getByRole("columnheader", { name: "Sanktionsprüfung" }).waitFor(slow);
      await shoot(page, size, "console-overview-de");
      await visit(page, `/console/proofs/${ids["pending-media"]}`);
      // Evidence not sent yet, no decision yet: the cards say "none yet" rather than standing empty.
      await page.getByRole("region", { name: "Beleg", exact: true }).getByText("Noch keiner").waitFor(slow);
      await shoot(page, size, "console-detail-pending-de");

      const auditor = await signedIn(browser, stack, `/console/proofs/${ids.verified}`, "demo-auditor", options);
      await auditor.getByRole("table", { name: "Audit trail of this proof" }).waitFor(slow);
      // The auditor reads the history in words, never the trail's raw member names.
      const history = (await auditor.getByRole("table", { name: "Audit trail of this proof" }).textContent()) ?? "";
      expect(history).not.toMatch(/byteSize|evidenceHash|contentType|outcome: VERIFIED/);
      expect(history).toContain("outcome: Verified");
      await shoot(auditor, size, "console-detail-auditor");
    });

    it(`shows the customer's screens at ${size} size`, async () => {
      for (const [kind, link] of Object.entries(portalLinks)) {
        const page = await openPage(browser, link, options);
        await page.getByRole("heading", { level: 2 }).first().waitFor(slow);
        await shoot(page, size, `portal-${kind}-pending`);
      }
      const invalid = await openPage(browser, `${stack.baseUrl}/portal/${"A".repeat(43)}`, options);
      await invalid.getByRole("heading", { name: "This link is not valid" }).waitFor(slow);
      await shoot(invalid, size, "portal-invalid-link");
      const media = await openPage(browser, portalLinks.media!, options);
      await media.getByRole("button", { name: "Upload" }).click(slow);
      await media.getByRole("alert").filter({ hasText: "Choose a screenshot or video first" }).waitFor(slow);
      await shoot(media, size, "portal-media-no-file");
      const satoshi = await apiQuery<{ aopd: { requestSatoshiProof: { portalUrl: string } } }>(
        stack,
        `mutation { aopd { requestSatoshiProof(input: { customerId: "CUST-SCREENS-SAT", asset: ${bitcoin}, senderAddress: "${bitcoinAddress}", depositAddress: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" }) { portalUrl } } }`,
      );
      const satoshiPage = await openPage(browser, `${stack.baseUrl}/portal/${credentialOf(satoshi.aopd.requestSatoshiProof.portalUrl)}`, options);
      await satoshiPage.getByRole("heading", { level: 2 }).first().waitFor(slow);
      await shoot(satoshiPage, size, "portal-satoshi-pending");
      for (const context of browser.contexts()) await context.close();
    });
  }
});

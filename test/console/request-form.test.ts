import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { launchBrowser } from "../portal/support/browser.js";
import { apiQuery, bitcoinAddress, signedIn, slow } from "./support/officer-pages.js";
import { startConsoleStack, type ConsoleStack } from "./support/start-console-stack.js";

/** A Bitcoin address on the OFAC SDN list of the bundled snapshot, which aopd loads at start. */
const listedAddress = "13JtX4h7G5ZuNK5mFudKGq9DHLvvMFuNuz";
const tronAddress = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";

/**
 * The request form as a new officer meets it, in Chromium against the whole stack: missing fields
 * named beside each field before anything is sent, the API's refusals beside the field their path
 * names and in the console's language (never GraphQL's text), assets told apart by network and
 * standard, an address of another network pointed out, and a listed address shown with its match
 * before the request, to be confirmed.
 */
describe("requesting a proof in the officer console", { timeout: 240_000 }, () => {
  let stack: ConsoleStack;
  let browser: Browser;
  const sent: string[] = [];

  beforeAll(async () => {
    stack = await startConsoleStack({ databaseUrl: await createTestDatabase("console_request_form") });
    browser = await launchBrowser();
  }, 120_000);
  afterEach(async () => {
    for (const context of browser.contexts()) await context.close();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const proofsOf = (customerId: string) =>
    apiQuery<{ aopd: { proofs: { id: string; address: string; screening: { status: string } }[] } }>(
      stack,
      `query($c: String!) { aopd { proofs(filter: { is: { any: { customerId: { eq: $c } } } }) { id address screening { status } } } }`,
      { c: customerId },
    ).then((data) => data.aopd.proofs);

  /** Signs in on the form of `kind` and records the request mutations the page sends. */
  async function form(kind: string, language?: string): Promise<Page> {
    const page = await signedIn(browser, stack, `/console/request?kind=${kind}`, "demo-officer", language ? { locale: language } : {});
    page.on("request", (request) => {
      if (request.url().endsWith("/graphql") && /mutation Request/.test(request.postData() ?? "")) sent.push(kind);
    });
    return page;
  }
  const fieldError = (page: Page, label: string) =>
    page.evaluate((name) => {
      const control = [...document.querySelectorAll("label")].find((label) => label.textContent === name)?.control;
      return control ? (document.getElementById(control.getAttribute("aria-describedby") ?? "")?.textContent ?? null) : null;
    }, label);

  it("names each missing field beside it and sends nothing, for every kind", async () => {
    sent.length = 0;
    const page = await form("satoshi");
    await page.getByRole("button", { name: "Request proof" }).click();
    await page.getByRole("alert").filter({ hasText: "Customer id: enter a value." }).waitFor(slow);
    expect(await fieldError(page, "Customer id")).toBe("Customer id: enter a value.");
    expect(await fieldError(page, "Asset")).toBe("Asset: choose one from the list.");
    expect(await fieldError(page, "Customer's sending address")).toBe("Customer's sending address: enter a value.");
    expect(await fieldError(page, "Deposit address")).toBe("Deposit address: enter a value.");
    expect(await page.getByLabel("Customer id").getAttribute("aria-invalid")).toBe("true");
    const text = (await page.getByRole("main").textContent()) ?? "";
    expect(text).not.toMatch(/Variable "\$input"|of required type|AopdAsset/);
    expect(sent).toEqual([]);
  });

  it("tells assets apart by network and standard, filters on any of them, and warns of an address of another network before sending", async () => {
    sent.length = 0;
    const customerId = `CUST-ASSET-${Date.now()}`;
    const page = await form("media");
    await page.getByLabel("Customer id").fill(customerId);
    const filter = page.getByLabel(/^Find an asset/);
    await filter.fill("usdt");
    const options = await page.getByLabel("Asset", { exact: true }).locator("option").allTextContents();
    expect(options).toEqual(
      expect.arrayContaining(["Tether USD (USDT) · Ethereum · ERC-20", "USD Tether (USDT) · TRON · TRC-20", "USD Tether (USDT) · Bitcoin · OMNI"]),
    );
    await page
      .getByRole("status")
      .filter({ hasText: `${options.length} assets match.` })
      .waitFor();
    await filter.fill("usdt ethereum");
    await page.getByRole("status").filter({ hasText: "1 asset matches." }).waitFor();
    expect(await page.getByLabel("Asset", { exact: true }).inputValue()).toBe("DTI2QWSBDMNC");
    await page.getByLabel("Expected address").fill(tronAddress);
    await page.getByText("This address is not written the way Ethereum writes addresses").waitFor();
    await page.getByRole("button", { name: "Request proof" }).click();
    expect(await fieldError(page, "Expected address")).toMatch(/not written the way Ethereum writes addresses/);
    expect(sent).toEqual([]);

    // The TRC-20 token is the one meant: found by network and standard, the address fits, the proof is made.
    await filter.fill("trc-20 usdt");
    await page.getByRole("status").filter({ hasText: "1 asset matches." }).waitFor();
    expect(await page.getByText(/not written the way/).count()).toBe(0);
    await page.getByRole("button", { name: "Request proof" }).click();
    await page.getByRole("region", { name: "Requested proof" }).waitFor(slow);
    expect((await proofsOf(customerId)).map((proof) => proof.address)).toEqual([tronAddress]);
  });

  it("shows an API refusal beside the field its path names, in the officer's language", async () => {
    sent.length = 0;
    const page = await form("media", "de-DE");
    await page.getByLabel("Kunden-ID").fill(`CUST-DE-${Date.now()}`);
    await page.getByLabel(/^Asset suchen/).fill("bitcoin btc nativ");
    await page.getByLabel("Asset", { exact: true }).selectOption("DTI4H95J0R2X");
    // Shaped like a Bitcoin address, but its checksum is wrong: only the API can say so.
    await page.getByLabel("Erwartete Adresse").fill(`${bitcoinAddress.slice(0, -1)}5`);
    await page.getByRole("button", { name: "Nachweis anfordern" }).click();
    await page.getByRole("alert").filter({ hasText: "Erwartete Adresse wurde nicht angenommen." }).waitFor(slow);
    expect(sent).toEqual(["media"]);
  });

  it("shows a listed address's match before the request and asks for a confirmation", async () => {
    const customerId = `CUST-LISTED-REQ-${Date.now()}`;
    const page = await form("media");
    await page.getByLabel("Customer id").fill(customerId);
    await page.getByLabel(/^Find an asset/).fill("bitcoin btc");
    await page.getByLabel("Asset", { exact: true }).selectOption("DTI4H95J0R2X");
    await page.getByLabel("Expected address").fill(listedAddress);
    await page.getByRole("button", { name: "Request proof" }).click();
    const dialog = page.getByRole("alertdialog", { name: "This address is on a sanctions list" });
    await dialog.waitFor(slow);
    const text = (await dialog.textContent()) ?? "";
    expect(text).toMatch(/OFAC SDN \(version \d{4}-\d{2}-\d{2}\)/);
    expect(text).toContain(listedAddress);
    expect(text).not.toContain("An entry without a name");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await proofsOf(customerId)).toEqual([]);

    await page.getByRole("button", { name: "Request proof" }).click();
    await dialog.getByRole("button", { name: "Request anyway" }).click();
    await page.getByRole("region", { name: "Requested proof" }).waitFor(slow);
    expect((await proofsOf(customerId)).map((proof) => proof.screening.status)).toEqual(["LISTED"]);
    // A clear address goes straight through, with no question asked.
    await page.getByLabel("Expected address").fill(bitcoinAddress);
    await page.getByRole("button", { name: "Request proof" }).click();
    await page.getByRole("region", { name: "Requested proof" }).waitFor(slow);
    expect(await dialog.count()).toBe(0);
  });
});

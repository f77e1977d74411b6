import pg from "pg";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, p2wpkhAddress, pollUntil, publicKeyOf, signBip322PublicKeyHash, testSecretKey } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";
import { launchBrowser, openPage } from "./support/browser.js";
import { headingShown, portalProofs, type RequestedProof } from "./support/portal-proofs.js";

const key = testSecretKey("portal phone bitcoin");
const address = p2wpkhAddress(publicKeyOf(key));
const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const contactAddress = "support@vasp.example";

/** Whether the element lies wholly inside the visible part of the page, by its position on screen. */
async function insideViewport(page: Page, element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const viewport = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.x >= 0 && box.y + box.height <= viewport.height && box.x + box.width <= viewport.width;
}

/**
 * The portal as a customer meets it on a 390x844 phone and by keyboard, against the whole stack:
 * refusals and results brought into view, rate limits that reloads do not spend, `?lang=`, the
 * logo at every width, and the operator's contact where a link has run out. Limits are small here
 * (3 submissions and 8 reads a minute per link) so that the tests reach them. One test waits out
 * a rate limit's refill in a browser: 19 s on an idle machine, past the default limit on a busy one.
 */
describe("the customer portal on a phone", { timeout: 180_000 }, () => {
  let stack: Stack;
  let browser: Browser;
  let apiToken: string;
  let portalBase: string;
  let databaseUrl: string;
  let proofs: ReturnType<typeof portalProofs>;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase("portalphone");
    stack = await startStack({
      realAopd: {
        databaseUrl,
        seedDemoProofs: 0,
        config: {
          expiryIntervalSeconds: 1,
          rateLimitPerCredential: 3,
          readRateLimitPerCredential: 8,
          portalContact: { kind: "email", href: `mailto:${contactAddress}`, label: contactAddress },
        },
      },
    });
    portalBase = new URL(stack.subgraphUrls.aopd).origin;
    apiToken = await stack.fetchToken();
    proofs = portalProofs(stack, () => apiToken);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const pageOf = (requested: RequestedProof, query = "") => `${portalBase}/portal/${requested.token}${query}`;

  it("scrolls a refused signature into view and focuses it, after a tap at the bottom of the form", async () => {
    const requested = await proofs.requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: address });
    const page = await openPage(browser, pageOf(requested), phone);
    await page.getByLabel("Signature").fill(signBip322PublicKeyHash(testSecretKey("somebody else"), address, requested.message));
    const button = page.getByRole("button", { name: "Submit proof" });
    await button.scrollIntoViewIfNeeded();
    await button.tap();
    const refusal = page.getByRole("alert").filter({ hasText: "The signature does not verify" });
    await refusal.waitFor();
    expect(await insideViewport(page, refusal)).toBe(true);
    expect(await refusal.evaluate((element) => element === document.activeElement)).toBe(true);
    // Keyboard: from the refusal, Tab leads on into the page again.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe("BODY");
  });

  it("shows a refused transaction id in view, with the allowed form of the asset's chain in the customer's language", async () => {
    const requested = await proofs.requestSatoshiProof(address);
    const page = await openPage(browser, pageOf(requested, "?lang=de"), phone);
    await page.getByLabel("Transaktions-ID").fill("not-a-transaction");
    const button = page.getByRole("button", { name: "Transaktion melden" });
    await button.scrollIntoViewIfNeeded();
    await button.tap();
    const refusal = page.getByRole("alert").filter({ hasText: "Eine Bitcoin-Transaktions-ID hat 64 Hexadezimalzeichen" });
    await refusal.waitFor();
    expect(await insideViewport(page, refusal)).toBe(true);
    expect(await proofs.statusOf(requested.id)).toBe("PENDING");
  });

  it("brings the result into view when the proof is verified", async () => {
    const requested = await proofs.requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: address });
    const page = await openPage(browser, pageOf(requested), phone);
    await page.getByLabel("Signature").fill(signBip322PublicKeyHash(key, address, requested.message));
    const button = page.getByRole("button", { name: "Submit proof" });
    await button.scrollIntoViewIfNeeded();
    await button.tap();
    const result = page.getByRole("heading", { name: "Your proof is verified" });
    await result.waitFor();
    expect(await insideViewport(page, result)).toBe(true);
    // Focus moved to the result, so a screen reader reads it and the keyboard continues from there.
    const focused = await page.evaluate(() => ({ tag: document.activeElement?.tagName, text: document.activeElement?.textContent ?? "" }));
    expect(focused.tag).not.toBe("BODY");
    expect(focused.text).toContain("Your proof is verified");
  });

  it("lets a customer reload more often than they may submit, then counts down a submission rate limit instead of reporting an outage", async () => {
    const requested = await proofs.requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: address });
    const page = await openPage(browser, pageOf(requested), phone);
    // Each load reads twice (the view and the live updates); three loads spend more than the 3 submissions a minute.
    for (let load = 0; load < 2; load += 1) {
      await page.reload();
      await page.getByRole("button", { name: "Submit proof" }).waitFor();
    }
    const wrong = signBip322PublicKeyHash(testSecretKey("somebody else"), address, requested.message);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await page.getByLabel("Signature").fill(wrong);
      await page.getByRole("button", { name: "Submit proof" }).tap();
      await page.getByRole("alert").filter({ hasText: "The signature does not verify" }).waitFor();
    }
    await page.getByRole("button", { name: "Submit proof" }).tap();
    const limited = page.getByRole("alert").filter({ hasText: /Too many attempts\. Try again in \d+ seconds?\./ });
    await limited.waitFor();
    expect(await insideViewport(page, limited)).toBe(true);
    const secondsShown = async () => Number(/in (\d+) seconds?/.exec((await limited.textContent()) ?? "")?.[1]);
    const first = await secondsShown();
    expect(first).toBeGreaterThan(1);
    expect(first).toBeLessThanOrEqual(20);
    await pollUntil("the countdown to tick down", secondsShown, (seconds) => seconds < first, { timeoutMs: 15_000 });
    expect(await page.getByText("The service is not available right now").count()).toBe(0);
  });

  it("shows a page-load rate limit as a countdown and loads again by itself when it is over", async () => {
    const requested = await proofs.requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: address });
    // Spend the link's 8 reads a minute outside the page; the page's own load is then refused.
    for (let read = 0; read < 8; read += 1) expect((await fetch(`${portalBase}/portal/api/proof/${requested.token}`)).status).toBe(200);
    const page = await openPage(browser, pageOf(requested), phone);
    await headingShown(page, "Too many attempts");
    await page.getByText(/loads again by itself in \d+ seconds?/).waitFor();
    expect(await page.getByText("The service is not available right now").count()).toBe(0);
    // 8 a minute refill one every 7.5 seconds: the page's own retry then finds the proof.
    await page.getByRole("button", { name: "Submit proof" }).waitFor({ timeout: 60_000 });
    // And it follows the proof live again (its event stream, refused at first, is opened again): a wallet's callback shows.
    await pollUntil(
      "the callback to be taken",
      async () =>
        (
          await fetch(`${portalBase}/aopp/callback/${requested.token}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ version: 0, address, signature: signBip322PublicKeyHash(key, address, requested.message) }),
          })
        ).status,
      (status) => status === 204,
      { timeoutMs: 30_000 },
    );
    await page.getByRole("heading", { name: "Your proof is verified" }).waitFor({ timeout: 60_000 });
  });

  it("says right beside the copy button that the message was copied, inside the phone's viewport", async () => {
    const requested = await proofs.requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: address });
    const page = await openPage(browser, pageOf(requested), { ...phone, permissions: ["clipboard-read", "clipboard-write"] });
    const button = page.getByRole("button", { name: "Copy message" });
    await button.scrollIntoViewIfNeeded();
    await button.tap();
    const copied = page.getByRole("status").filter({ hasText: "Copied to the clipboard." });
    await copied.waitFor();
    expect(await insideViewport(page, copied)).toBe(true);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(requested.message);
  });

  it("takes the language from ?lang= and keeps the customer's choice in the address across reloads", async () => {
    const requested = await proofs.requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: address });
    const page = await openPage(browser, pageOf(requested, "?lang=de"), { ...phone, locale: "en-US" });
    await headingShown(page, "Nachweis der Kontrolle über Ihre Adresse");
    await page.getByLabel("Sprache").selectOption("en");
    await headingShown(page, "Prove that you control your address");
    expect(new URL(page.url()).searchParams.get("lang")).toBe("en");
    await page.reload();
    await headingShown(page, "Prove that you control your address");
    // An unknown language falls back to the browser's.
    const other = await openPage(browser, pageOf(requested, "?lang=xx"), { locale: "de-DE" });
    await headingShown(other, "Nachweis der Kontrolle über Ihre Adresse");
  });

  it("fits the whole logo in the header at phone and desktop widths", async () => {
    const requested = await proofs.requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: address });
    for (const options of [phone, { viewport: { width: 1280, height: 800 } }]) {
      const page = await openPage(browser, pageOf(requested), options);
      const logo = page.locator("header img");
      await pollUntil("the logo to load", () => logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0), Boolean, {
        timeoutMs: 15_000,
      });
      const { rendered, natural } = await logo.evaluate((image: HTMLImageElement) => ({
        rendered: image.clientWidth / image.clientHeight,
        natural: image.naturalWidth / image.naturalHeight,
      }));
      expect(Math.abs(rendered - natural)).toBeLessThan(0.05);
      expect(await insideViewport(page, logo)).toBe(true);
    }
    // Inside the image, the words end before its right edge, whatever font this machine has.
    const svg = await openPage(browser, `${portalBase}/portal/logo.svg`);
    const { textEnd, width } = await svg.evaluate(() => {
      const root = document.documentElement as unknown as SVGSVGElement;
      const text = document.querySelector("text") as SVGTextElement;
      const box = text.getBBox();
      return { textEnd: box.x + box.width, width: root.viewBox.baseVal.width };
    });
    expect(textEnd).toBeLessThanOrEqual(width);
  });

  it("names the operator's contact when a link has expired", async () => {
    const requested = await proofs.requestSignatureProof({ asset: "DTI4H95J0R2X", expectedAddress: address });
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query("UPDATE aopd_proof SET due_at = now() - interval '1 second' WHERE id = $1", [requested.id]);
    await client.end();
    await pollUntil(
      "the expiry job to expire the proof",
      () => proofs.statusOf(requested.id),
      (status) => status === "EXPIRED",
      { timeoutMs: 30_000 },
    );
    const page = await openPage(browser, pageOf(requested, "?lang=de"), phone);
    await headingShown(page, "Dieser Nachweis ist abgelaufen");
    const contact = page.getByRole("link", { name: contactAddress });
    expect(await contact.getAttribute("href")).toBe(`mailto:${contactAddress}`);
    await page.getByText("Für einen neuen Link schreiben Sie an").waitFor();
  });
});

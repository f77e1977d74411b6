import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { launchBrowser } from "../portal/support/browser.js";
import { apiQuery, bitcoin, bitcoinAddress, credentialOf, signedIn, slow, uploadedMediaProof } from "./support/officer-pages.js";
import { startConsoleStack, type ConsoleStack } from "./support/start-console-stack.js";

const folder = new URL("../../test-artifacts/screens/desktop/", import.meta.url);

/**
 * A pending proof's detail gives the officer who lost the customer's link a new one
 * (`issuePortalLink`): after a confirmation that the old links stop working, the new portal link,
 * AOPP URI, copy buttons and QR code, as the request form shows them; the old link then answers
 * 404 on the portal and the new one opens the proof. A proof past its due time, not yet expired,
 * gets none (the API would refuse it), and the card says why.
 */
describe("a new portal link from a pending proof's detail", { timeout: 240_000 }, () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase("console_portal_link");
    // No expiry job: a proof past its due time stays PENDING, as it does until the job's next run.
    stack = await startConsoleStack({ databaseUrl, expiryIntervalSeconds: 0 });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const portalStatus = async (portalUrl: string) => (await fetch(`${stack.baseUrl}/portal/api/proof/${credentialOf(portalUrl)}`)).status;

  it("issues a new link after a confirmation, shows it with its QR code, and the old link stops working", async () => {
    const { aopd } = await apiQuery<{ aopd: { requestAoppProof: { portalUrl: string; proof: { id: string } } } }>(
      stack,
      `mutation($input: AopdRequestAoppProofInput!) { aopd { requestAoppProof(input: $input) { portalUrl proof { id } } } }`,
      { input: { customerId: `CUST-LINK-${Date.now()}`, asset: bitcoin, expectedAddress: bitcoinAddress } },
    );
    const { id } = aopd.requestAoppProof.proof;
    const oldLink = aopd.requestAoppProof.portalUrl;
    expect(await portalStatus(oldLink)).toBe(200);

    const page = await signedIn(browser, stack, `/console/proofs/${id}`);
    const card = page.getByRole("region", { name: "Customer's link" });
    await card.getByText("A new link replaces it", { exact: false }).waitFor(slow);
    await card.getByRole("button", { name: "Issue a new link" }).click();
    // Nothing is issued before the confirmation, which says what happens to the links sent before.
    const confirmation = card.getByRole("group", { name: "Confirm the new link" });
    await confirmation.getByText("The links sent to the customer before stop working.", { exact: false }).waitFor(slow);
    expect(await portalStatus(oldLink)).toBe(200);
    await confirmation.getByRole("button", { name: "Issue the new link" }).click();

    await card.getByText("New link issued", { exact: false }).waitFor(slow);
    await card.getByRole("button", { name: "Copy the Portal link" }).waitFor(slow);
    await card.getByRole("img", { name: "QR code of the AOPP URI" }).waitFor(slow);
    const newLink = await card.getByRole("link").first().getAttribute("href");
    expect(newLink).toMatch(/\/portal\/[A-Za-z0-9_-]{43}$/);
    expect(newLink).not.toBe(oldLink);
    expect(await card.getByText(/^aopp:\?/).textContent()).toContain(encodeURIComponent(credentialOf(newLink!)!));
    expect(await portalStatus(newLink!)).toBe(200);
    expect(await portalStatus(oldLink)).toBe(404);
    mkdirSync(folder, { recursive: true });
    await page.screenshot({ path: new URL("detail-new-portal-link.png", folder).pathname, fullPage: true });
  });

  it("offers no new link on a pending proof past its due time, and says why", async () => {
    const { aopd } = await apiQuery<{ aopd: { requestAoppProof: { proof: { id: string } } } }>(
      stack,
      `mutation($input: AopdRequestAoppProofInput!) { aopd { requestAoppProof(input: $input) { proof { id } } } }`,
      { input: { customerId: `CUST-LINK-${Date.now()}`, asset: bitcoin, expectedAddress: bitcoinAddress } },
    );
    const { id } = aopd.requestAoppProof.proof;
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query("UPDATE aopd_proof SET due_at = now() - interval '1 minute' WHERE id = $1", [id]);
    } finally {
      await client.end();
    }

    const page = await signedIn(browser, stack, `/console/proofs/${id}`);
    await page.getByRole("region", { name: "Overview" }).getByText("Pending", { exact: true }).waitFor(slow);
    const card = page.getByRole("region", { name: "Customer's link" });
    await card.getByText("The proof's due time has passed, so no new link can be issued", { exact: false }).waitFor(slow);
    expect(await card.getByRole("button").count()).toBe(0);
    mkdirSync(folder, { recursive: true });
    await page.screenshot({ path: new URL("detail-portal-link-overdue.png", folder).pathname, fullPage: true });
  });

  it("offers no new link on a proof that is no longer pending", async () => {
    const id = await uploadedMediaProof(stack, `CUST-LINK-${Date.now()}`);
    const page = await signedIn(browser, stack, `/console/proofs/${id}`);
    await page.getByRole("region", { name: "Overview" }).getByText("Submitted", { exact: true }).waitFor(slow);
    expect(await page.getByRole("region", { name: "Customer's link" }).count()).toBe(0);
  });
});

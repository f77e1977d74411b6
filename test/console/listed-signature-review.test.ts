import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { importSanctionsList } from "@compliance-graph/aopd/internals";
import { ofacSdnListName } from "@compliance-graph/sanctions-lists";
import { createTestDatabase, p2wpkhAddress, publicKeyOf, signBip322PublicKeyHash, testSecretKey } from "@compliance-graph/test-kit";
import { launchBrowser } from "../portal/support/browser.js";
import { apiQuery, bitcoin, credentialOf, signedIn, slow } from "./support/officer-pages.js";
import { startConsoleStack, type ConsoleStack } from "./support/start-console-stack.js";

const listedKey = testSecretKey("console listed signer");
const listedAddress = p2wpkhAddress(publicKeyOf(listedKey));
const clearKey = testSecretKey("console clear signer");
const clearAddress = p2wpkhAddress(publicKeyOf(clearKey));

/**
 * Issue 35: under AOPD_SCREENING_POLICY=refuse a valid signature of a listed address is left for
 * review, and the console must let an officer decide it (the signature kind is otherwise decided by
 * its evidence, so the console showed no decision controls and the proof stayed SUBMITTED forever).
 * In a real browser against the whole stack: the detail says why it waits, VERIFIED needs the
 * reason in words (the API's refusal is shown), the decision is the API's, and it can be corrected
 * (reopened) as any officer's; a signature proof its signature decided offers no correction.
 */
describe("a listed signature left for review in the officer console", { timeout: 300_000 }, () => {
  let stack: ConsoleStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startConsoleStack({ databaseUrl: await createTestDatabase("console_listed_review"), screeningPolicy: "refuse" });
    await importSanctionsList(stack.aopd.services.db, stack.aopd.services.config.assets, {
      list: ofacSdnListName,
      publishedOn: "2099-03-01",
      source: "listed-signature-review.test.ts",
      contentHash: "d".repeat(64),
      addresses: [{ ofacAsset: "XBT", address: listedAddress, family: "bitcoin", sdnUid: "993502", sdnName: "CONSOLE LISTED SIGNER" }],
    });
    browser = await launchBrowser();
  }, 180_000);
  afterEach(async () => {
    for (const context of browser.contexts()) await context.close();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("shows why the proof waits, refuses VERIFIED without the reason in words, and records the officer's decision", async () => {
    const { aopd } = await apiQuery<{ aopd: { requestAoppProof: { portalUrl: string; proof: { id: string; message: string } } } }>(
      stack,
      `mutation($input: AopdRequestAoppProofInput!) { aopd { requestAoppProof(input: $input) { portalUrl proof { id message } } } }`,
      { input: { customerId: `CUST-LISTED-SIG-${Date.now()}`, asset: bitcoin, format: "P2WPKH" } },
    );
    const { id, message } = aopd.requestAoppProof.proof;
    const signed = await fetch(`${stack.baseUrl}/portal/api/proof/${credentialOf(aopd.requestAoppProof.portalUrl)}/signature`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: listedAddress, signature: signBip322PublicKeyHash(listedKey, listedAddress, message) }),
    });
    expect(signed.status).toBe(200);

    const page = await signedIn(browser, stack, `/console/proofs/${id}`);
    await page.getByRole("heading", { name: `Proof ${id}` }).waitFor(slow);
    await page.getByText(/^The signature is valid, but screening lists the address or another address of its key/).waitFor(slow);
    const decide = page.getByRole("region", { name: "Decide" });
    await decide.waitFor(slow);
    // The kind's own reason codes, from configuration.proofKinds.
    expect(await decide.getByLabel("Reason", { exact: true }).locator("option").allTextContents()).toEqual([
      "No reason given",
      "The address or another address of its key is on a sanctions list",
      "Other",
    ]);

    await page.getByRole("radio", { name: "Verified" }).check();
    await page.getByRole("button", { name: "Review decision" }).click();
    await page.getByRole("button", { name: "Confirm decision" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: /^Refused: .*reasonText/ })
      .waitFor(slow);
    const status = async () =>
      (
        await apiQuery<{ aopd: { proofs: { status: string; decision: Record<string, unknown> | null }[] } }>(
          stack,
          `query($id: String!) { aopd { proofs(filter: { is: { any: { id: { eq: $id } } } }, limit: 1) {
            status ... on AopdSignatureProof { decision { outcome reasonText decider { username } } } } } }`,
          { id },
        )
      ).aopd.proofs[0]!;
    expect((await status()).status).toBe("SUBMITTED");

    await page.getByRole("button", { name: "Back" }).click();
    await page.getByLabel("Reason in your words").fill("Former exchange deposit address; risk accepted by the MLRO.");
    await page.getByRole("button", { name: "Review decision" }).click();
    await page.getByRole("button", { name: "Confirm decision" }).click();
    await page.getByRole("region", { name: "Overview" }).getByText("Verified", { exact: true }).waitFor(slow);
    expect(await status()).toEqual({
      status: "VERIFIED",
      decision: { outcome: "VERIFIED", reasonText: "Former exchange deposit address; risk accepted by the MLRO.", decider: { username: "demo-officer" } },
    });
    // Decided by an officer after review: the decision can be corrected as any officer's, back to review.
    expect(await page.getByRole("region", { name: "Decide" }).count()).toBe(0);
    const correct = page.getByRole("region", { name: "Correct the decision" });
    await correct.getByLabel("Why the decision is reopened").fill("The exchange denies the address was ever the customer's.");
    await correct.getByRole("button", { name: "Reopen the proof" }).click();
    await correct.getByRole("button", { name: "Confirm reopening" }).click();
    await page.getByRole("region", { name: "Overview" }).getByText("Submitted", { exact: true }).waitFor(slow);
    await page.getByRole("region", { name: "Decide" }).waitFor(slow);
    expect(await status()).toEqual({ status: "SUBMITTED", decision: null });
  });

  it("offers no correction of a signature proof its signature decided", async () => {
    const { aopd } = await apiQuery<{ aopd: { requestAoppProof: { portalUrl: string; proof: { id: string; message: string } } } }>(
      stack,
      `mutation($input: AopdRequestAoppProofInput!) { aopd { requestAoppProof(input: $input) { portalUrl proof { id message } } } }`,
      { input: { customerId: `CUST-CLEAR-SIG-${Date.now()}`, asset: bitcoin, format: "P2WPKH" } },
    );
    const { id, message } = aopd.requestAoppProof.proof;
    const signed = await fetch(`${stack.baseUrl}/portal/api/proof/${credentialOf(aopd.requestAoppProof.portalUrl)}/signature`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: clearAddress, signature: signBip322PublicKeyHash(clearKey, clearAddress, message) }),
    });
    expect(signed.status).toBe(200);
    const page = await signedIn(browser, stack, `/console/proofs/${id}`);
    await page.getByRole("region", { name: "Overview" }).getByText("Verified", { exact: true }).waitFor(slow);
    // The detail is whole once its history shows; neither a decision nor a correction is offered.
    await page.getByRole("region", { name: "History" }).waitFor(slow);
    expect(await page.getByRole("region", { name: "Correct the decision" }).count()).toBe(0);
    expect(await page.getByRole("region", { name: "Decide" }).count()).toBe(0);
  });
});

import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, pngImage } from "@compliance-graph/test-kit";
import { startStack, type Stack } from "../support/start-stack.js";
import { launchBrowser, openPage } from "./support/browser.js";
import { headingShown, portalProofs } from "./support/portal-proofs.js";

const ethereumAddress = "0x52908400098527886E0F7030069857D2E4169EE7";

/**
 * What an open portal page learns without a reload, and what it says where a customer could be
 * left guessing: an officer's decision and its reopening reach the page live; Upload with no file
 * says so; with no contact configured, "a new link" names whom to ask.
 */
describe("the customer portal, live and plain", { timeout: 120_000 }, () => {
  let stack: Stack;
  let browser: Browser;
  let apiToken: string;
  let portalBase: string;
  let proofs: ReturnType<typeof portalProofs>;

  beforeAll(async () => {
    stack = await startStack({ realAopd: { databaseUrl: await createTestDatabase("portallive"), seedDemoProofs: 0 } });
    portalBase = new URL(stack.subgraphUrls.aopd).origin;
    apiToken = await stack.fetchToken();
    proofs = portalProofs(stack, () => apiToken);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function requestMediaProof(): Promise<{ id: string; token: string }> {
    const data = await proofs.graphql<{ aopd: { requestMediaProof: { id: string; portalUrl: string } } }>(
      `mutation($a: String!) { aopd { requestMediaProof(input: { customerId: "CUST-LIVE", asset: DTIX9J9K872S, expectedAddress: $a }) { id portalUrl } } }`,
      { a: ethereumAddress },
    );
    const { id, portalUrl } = data.aopd.requestMediaProof;
    return { id, token: new URL(portalUrl).pathname.split("/").at(-1)! };
  }

  it("shows an officer's decision and its reopening on the open page, without a reload", async () => {
    const requested = await requestMediaProof();
    const upload = await fetch(`${portalBase}/portal/api/proof/${requested.token}/media`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: new Uint8Array(pngImage(64, 64, { pixels: true })),
    });
    expect(upload.status).toBe(200);
    const page = await openPage(browser, `${portalBase}/portal/${requested.token}`);
    await headingShown(page, "Your file was received");

    await proofs.graphql(`mutation($id: ID!) { aopd { assessMediaProof(id: $id, assessment: VERIFIED) { status } } }`, { id: requested.id });
    await headingShown(page, "Your proof is verified");
    await proofs.graphql(`mutation($id: ID!) { aopd { reopenProof(id: $id, reason: "The screenshot shows another wallet.") { status } } }`, {
      id: requested.id,
    });
    // The stale "verified" is gone: the page says the file is back in review, as the proof is.
    await headingShown(page, "Your file was received");
    expect(await page.getByRole("heading", { name: "Your proof is verified" }).count()).toBe(0);
    expect(await proofs.statusOf(requested.id)).toBe("SUBMITTED");
  });

  it("says that a file must be chosen when Upload is pressed without one, and sends nothing", async () => {
    const requested = await requestMediaProof();
    const page = await openPage(browser, `${portalBase}/portal/${requested.token}`);
    await page.getByRole("button", { name: "Upload" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "Choose a screenshot or video first" });
    await alert.waitFor();
    expect(await page.getByLabel("Screenshot or video", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(await proofs.statusOf(requested.id)).toBe("PENDING");
    await page
      .getByLabel("Screenshot or video", { exact: true })
      .setInputFiles({ name: "wallet.png", mimeType: "image/png", buffer: pngImage(64, 64, { pixels: true }) });
    expect(await alert.isVisible()).toBe(false);
  });

  it("names whom to ask for a new link when no contact is configured", async () => {
    const page = await openPage(browser, `${portalBase}/portal/${"A".repeat(43)}`);
    await headingShown(page, "This link is not valid");
    await page.getByText("Ask the service that sent you this link for a new one.").waitFor();
    await page.getByRole("combobox").selectOption("de");
    await page.getByText("Bitten Sie den Dienst, der Ihnen diesen Link geschickt hat, um einen neuen.").waitFor();
  });
});

import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, ethereumAddressOf, pngImage, readWorkbook, signPersonalMessage, testSecretKey } from "@compliance-graph/test-kit";
import { apiQuery, bitcoinAddress, reportedSatoshiProof, signedIn as signIn, slow, uploadedMediaProof as uploadMediaProof } from "./support/officer-pages.js";
import { startConsoleStack, type ConsoleStack } from "./support/start-console-stack.js";
import { launchBrowser, openPage } from "../portal/support/browser.js";

const etherKey = testSecretKey("officer console ether");
const etherAddress = ethereumAddressOf(etherKey);

/**
 * The officer console in a real browser (Debian's Chromium) against the whole system on one origin:
 * sign-in through the development identity provider's own page (authorization code + PKCE), the
 * gateway's /graphql, WebSocket, media and download routes, the real aopd on PostgreSQL, and the
 * customer portal in a second page. Elements are found as a person finds them: by label and role.
 */
describe("the officer console in a browser", { timeout: 180_000 }, () => {
  let stack: ConsoleStack;
  let browser: Browser;

  beforeAll(async () => {
    // Access tokens live 70 s: the console renews each a minute before expiry, so within ~10 s of signing in.
    stack = await startConsoleStack({ databaseUrl: await createTestDatabase("console"), accessTokenTtlSeconds: 70 });
    browser = await launchBrowser();
  }, 120_000);
  // Each test starts with no other page open: an officer's earlier tabs are not part of its story.
  afterEach(async () => {
    for (const context of browser.contexts()) await context.close();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const graphql = <T>(query: string, variables?: Record<string, unknown>) => apiQuery<T>(stack, query, variables);
  type DecisionRecord = { outcome: string; reason: string | null; reasonText: string | null; comment: string | null; decider: { username: string | null } };
  const decisionSelection = "decision { outcome reason reasonText comment decider { username } }";
  const proofById = (id: string) =>
    graphql<{ aopd: { proofs: { status: string; comment: string | null; decision?: DecisionRecord | null }[] } }>(
      `query($id: String!) { aopd { proofs(filter: { is: { any: { id: { eq: $id } } } }) { status comment ... on AopdMediaProof { ${decisionSelection} } ... on AopdSatoshiProof { ${decisionSelection} } } } }`,
      { id },
    ).then((data) => data.aopd.proofs[0]);

  const uploadedMediaProof = (customerId: string, file = pngImage(64, 48)) => uploadMediaProof(stack, customerId, file);
  const signedIn = (path: string, username = "demo-officer", options: BrowserContextOptions = {}): Promise<Page> =>
    signIn(browser, stack, path, username, options);

  it("signs in through the identity provider's page with PKCE and comes back to the filtered overview it was opened at", async () => {
    const page = await openPage(browser, `${stack.baseUrl}/console/?status=SUBMITTED&kind=media`);
    await page.getByRole("button", { name: "Sign in" }).waitFor(slow);
    const authorize = new URL(page.url());
    expect(authorize.pathname).toMatch(/\/auth\/realms\/dev\/login\//);
    await page.getByLabel("Username").fill("demo-officer");
    await page.getByLabel("Password").fill("wrong");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "Invalid username or password." }).waitFor(slow);
    await page.getByLabel("Password").fill("demo-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("table", { name: "Proofs" }).waitFor(slow);
    expect(new URL(page.url()).search).toBe("?status=SUBMITTED&kind=media");
    expect(await page.getByRole("checkbox", { name: "Submitted" }).isChecked()).toBe(true);
    expect(await page.getByLabel("Kind").inputValue()).toBe("media");
    expect(await page.getByText("Signed in as demo-officer").count()).toBe(1);
    // The tokens are the session's only: nothing in local storage.
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("oidc")))).toEqual([]);
  });

  it("lists a media proof the customer uploaded in the review queue, shows the image with its hash checked, and records the decision", async () => {
    const file = pngImage(64, 48);
    const id = await uploadedMediaProof(`CUST-REVIEW-${Date.now()}`, file);
    const page = await signedIn("/console/review");
    await page
      .getByRole("status")
      .filter({ hasText: /waits? for review, oldest first/ })
      .waitFor(slow);
    await page.getByRole("link", { name: id }).click();
    await page.getByRole("heading", { name: `Proof ${id}` }).waitFor(slow);
    await page.getByRole("img", { name: `The customer's wallet showing ${bitcoinAddress}` }).waitFor(slow);
    await page.getByText("SHA-256 checked: the file matches the record.").waitFor(slow);
    expect(await page.getByText(createHash("sha256").update(file).digest("hex")).count()).toBe(1);
    await page.getByText("64 × 48 pixels").waitFor(slow);

    // FAILED needs a reason; nothing is sent without it.
    await page.getByRole("radio", { name: "Failed" }).check();
    await page.getByRole("button", { name: "Review decision" }).click();
    await page.getByRole("alert").filter({ hasText: "Choose the reason for Failed." }).waitFor(slow);
    expect((await proofById(id))?.status).toBe("SUBMITTED");

    await page.getByRole("radio", { name: "Verified" }).check();
    await page.getByLabel("Your comment (kept apart from the requester's)").fill("address visible in the wallet");
    await page.getByRole("button", { name: "Review decision" }).click();
    await page.getByText(`Mark proof ${id} as Verified?`).waitFor(slow);
    expect((await proofById(id))?.status).toBe("SUBMITTED");
    await page.getByRole("button", { name: "Confirm decision" }).click();
    await page.getByRole("region", { name: "Overview" }).getByText("Verified", { exact: true }).waitFor(slow);
    // The API reports the decision and who made it; the requester's comment is untouched.
    expect(await proofById(id)).toEqual({
      status: "VERIFIED",
      comment: null,
      decision: { outcome: "VERIFIED", reason: null, reasonText: null, comment: "address visible in the wallet", decider: { username: "demo-officer" } },
    });
    await page
      .getByRole("region", { name: "Decision" })
      .getByText(/^demo-officer \(/)
      .waitFor(slow);
    expect(await page.getByRole("region", { name: "Decide" }).count()).toBe(0);
  });

  it("assesses a Satoshi proof from its detail: amount in whole and lowest units, the customer's transaction, a FAILED with its reason", async () => {
    const txId = "ab".repeat(32);
    const { id, amount } = await reportedSatoshiProof(stack, `CUST-SAT-${Date.now()}`, txId);

    const page = await signedIn(`/console/proofs/${id}`);
    const evidence = page.getByRole("region", { name: "Evidence" });
    await evidence.waitFor(slow);
    const whole = (Number(amount) / 1e8).toFixed(8).replace(/0+$/, "");
    await evidence.getByText(`${whole} BTC (${amount} in the lowest unit)`).waitFor(slow);
    expect(await evidence.getByRole("link", { name: txId }).getAttribute("href")).toBe(`https://mempool.space/tx/${txId}`);
    await page.getByRole("radio", { name: "Failed" }).check();
    await page.getByLabel("Reason", { exact: true }).selectOption({ label: "The transaction pays nothing to the deposit address" });
    await page.getByLabel("Reason in your words").fill("no such transaction on chain");
    await page.getByRole("button", { name: "Review decision" }).click();
    await page.getByRole("button", { name: "Confirm decision" }).click();
    await page.getByRole("region", { name: "Overview" }).getByText("Failed", { exact: true }).waitFor(slow);
    expect(await proofById(id)).toMatchObject({
      status: "FAILED",
      decision: { outcome: "FAILED", reason: "WRONG_RECIPIENT", reasonText: "no such transaction on chain", decider: { username: "demo-officer" } },
    });
  });

  it("shows a signature proof requested in the console and completed in the portal as VERIFIED without a reload", async () => {
    const customerId = `CUST-SIG-${Date.now()}`;
    const page = await signedIn("/console/request");
    await page.getByLabel("Customer id").fill(customerId);
    await page.getByLabel(/^Find an asset/).fill("ethereum eth native");
    await page.getByLabel("Asset", { exact: true }).selectOption("DTIX9J9K872S");
    await page.getByLabel("Expected address").fill("0x1234");
    await page.getByRole("button", { name: "Request proof" }).click();
    // An address that is no Ethereum address is pointed out next to its field before anything is sent.
    const refusal = page.getByRole("alert").filter({ hasText: "not written the way Ethereum writes addresses" });
    await refusal.waitFor(slow);
    expect(await page.getByLabel("Expected address").getAttribute("aria-describedby")).toBe(await refusal.getAttribute("id"));
    await page.getByLabel("Expected address").fill(etherAddress);
    await page.getByRole("button", { name: "Request proof" }).click();
    const result = page.getByRole("region", { name: "Requested proof" });
    await result.waitFor(slow);
    const portalUrl = (await result.getByRole("link").first().textContent()) ?? "";
    expect(portalUrl.startsWith(`${stack.baseUrl}/portal/`)).toBe(true);
    await result.getByRole("button", { name: "Copy the Portal link" }).waitFor();
    await result.getByRole("button", { name: "Copy the AOPP URI" }).waitFor();
    await result.getByRole("img", { name: "QR code of the AOPP URI" }).waitFor();
    expect(await result.getByText(/^aopp:\?v=0/).count()).toBe(1);

    // To the overview of this customer, in the page (no reload: a marker in the window survives).
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await page.getByRole("link", { name: "Proofs", exact: true }).click();
    await page.getByLabel("Customer", { exact: true }).fill(customerId);
    await page.getByRole("button", { name: "Apply filter" }).click();
    const table = page.getByRole("table", { name: "Proofs" });
    await table.getByRole("cell", { name: "Pending", exact: true }).waitFor(slow);

    const portal = await openPage(browser, portalUrl, {}, async (portalPage) => {
      await portalPage.exposeFunction(
        "testWalletSign",
        (hexMessage: string) => `0x${Buffer.from(signPersonalMessage(etherKey, Buffer.from(hexMessage.slice(2), "hex").toString("utf8"))).toString("hex")}`,
      );
      await portalPage.addInitScript((address: string) => {
        const sign = (window as unknown as { testWalletSign: (hex: string) => Promise<string> }).testWalletSign;
        (window as unknown as { ethereum: unknown }).ethereum = {
          request: async ({ method, params }: { method: string; params?: string[] }) => {
            if (method === "eth_requestAccounts") return [address];
            if (method === "personal_sign") return sign(params![0]!);
            throw new Error(`unsupported method ${method}`);
          },
        };
      }, etherAddress);
    });
    await portal.getByRole("button", { name: "Sign with browser wallet" }).click(slow);
    await portal.getByRole("heading", { name: "Your proof is verified" }).waitFor(slow);

    await table.getByRole("cell", { name: "Verified", exact: true }).waitFor(slow);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    // Its detail names the scheme the signature was verified with.
    await table.getByRole("link", { name: /^[0-9a-f-]{36}$/ }).click();
    await page.getByRole("region", { name: "Evidence" }).getByText("EIP-191 (personal_sign)").waitFor(slow);
  });

  it("requests a media proof that the customer completes in the portal; it joins the review queue by itself, its file checked", async () => {
    const customerId = `CUST-MEDIA-REQ-${Date.now()}`;
    const page = await signedIn("/console/request?kind=media");
    await page.getByLabel("Customer id").fill(customerId);
    await page.getByLabel(/^Find an asset/).fill("bitcoin btc native");
    await page.getByLabel("Asset", { exact: true }).selectOption("DTI4H95J0R2X");
    await page.getByLabel("Expected address").fill(bitcoinAddress);
    await page.getByLabel("Comment").fill("screenshot of the hardware wallet");
    await page.getByRole("button", { name: "Request proof" }).click();
    const result = page.getByRole("region", { name: "Requested proof" });
    await result.waitFor(slow);
    const id = ((await result.getByRole("heading").textContent()) ?? "").replace(/^Proof (\S+) requested$/, "$1");
    const portalUrl = (await result.getByRole("link").first().textContent()) ?? "";
    await result.getByRole("img", { name: "QR code of the Portal link" }).waitFor();
    expect(portalUrl.startsWith(`${stack.baseUrl}/portal/`)).toBe(true);

    await page.getByRole("link", { name: /^Waiting for review/ }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /waits? for review, oldest first/ })
      .waitFor(slow);
    expect(await page.getByRole("link", { name: id }).count()).toBe(0);

    const file = pngImage(80, 60);
    const portal = await openPage(browser, portalUrl);
    await portal.getByLabel("Screenshot or video", { exact: true }).setInputFiles({ name: "wallet.png", mimeType: "image/png", buffer: file });
    await portal.getByRole("button", { name: "Upload" }).click();
    await portal.getByRole("heading", { name: "Your file was received" }).waitFor(slow);

    // No reload: the queue hears the upload through the live subscription.
    await page.getByRole("link", { name: id }).click(slow);
    await page.getByRole("img", { name: `The customer's wallet showing ${bitcoinAddress}` }).waitFor(slow);
    await page.getByText("80 × 60 pixels").waitFor(slow);
    await page.getByText("SHA-256 checked: the file matches the record.").waitFor(slow);
    expect(await page.getByRole("region", { name: "Overview" }).getByText("screenshot of the hardware wallet").count()).toBe(1);
  });

  it("resumes its live updates after a lost connection from the last event it saw, missing nothing, in every tab of the officer", async () => {
    const customerId = `CUST-LIVE-${Date.now()}`;
    await uploadedMediaProof(customerId);
    // Two tabs of one officer on the same screen: after the cut they come back with the same last
    // cursor a moment apart, and each must get the gap (the gateway once let the later one join
    // the earlier one's subscription after its replay).
    const tabs = [await signedIn(`/console/?customer=${customerId}`), await signedIn(`/console/?customer=${customerId}`)];
    const showing = (text: string | RegExp, options = slow) =>
      Promise.all(tabs.map((tab) => tab.getByRole("status").filter({ hasText: text }).waitFor(options)));
    await showing("1 proof, page 1 of 1");
    await showing(/^Live$/);
    // An event seen while connected, so each tab holds an eventCursor. "Live" is the socket's
    // acknowledgement; the subscription itself starts a moment later, so probes are added until
    // one shows in every tab (each shown page counts every proof so far).
    let proofs = 1;
    for (;;) {
      await uploadedMediaProof(customerId);
      proofs += 1;
      const shown = await showing(`${proofs} proofs, page 1 of 1`, { timeout: 10_000 }).then(
        () => true,
        () => false,
      );
      if (shown) break;
      expect(proofs, "no live event reached both tabs").toBeLessThan(8);
    }

    const cut = stack.cutWebSockets();
    await showing("Reconnecting…");
    // Happens while the console cannot hear it: only a resumed subscription (`after`) brings it.
    await uploadedMediaProof(customerId);
    cut.restore();
    await showing(`${proofs + 1} proofs, page 1 of 1`);
    await showing(/^Live$/);
  });

  it("exports the current filter as a workbook whose rows are the filter's proofs", async () => {
    const customerId = `CUST-EXPORT-${Date.now()}`;
    const ids = [await uploadedMediaProof(customerId), await uploadedMediaProof(customerId), await uploadedMediaProof(`${customerId}-OTHER`)];
    const page = await signedIn(`/console/?customer=${customerId}`);
    await page.getByRole("status").filter({ hasText: "2 proofs, page 1 of 1" }).waitFor(slow);
    const [download] = await Promise.all([page.waitForEvent("download", slow), page.getByRole("button", { name: "Export as XLSX" }).click()]);
    expect(download.suggestedFilename()).toBe("proofs.xlsx");
    const sheets = readWorkbook(await readFile((await download.path()) ?? ""));
    const rows = sheets.flatMap((sheet) => sheet.rows.slice(1));
    const text = JSON.stringify(rows);
    expect(rows).toHaveLength(2);
    expect(text).toContain(ids[0]);
    expect(text).toContain(ids[1]);
    expect(text).not.toContain(ids[2]);
    await page
      .getByRole("status")
      .filter({ hasText: /Export downloaded \(\d+ KB\)\./ })
      .waitFor(slow);
  });

  it("shows the auditor no decide, request or export controls, and the API refuses the auditor those anyway", async () => {
    const id = await uploadedMediaProof(`CUST-AUDIT-${Date.now()}`);
    const page = await signedIn(`/console/proofs/${id}`, "demo-auditor");
    await page.getByRole("region", { name: "Overview" }).waitFor(slow);
    await page.getByText("Viewing the file needs the role proofs:export.").waitFor(slow);
    expect(await page.getByRole("region", { name: "Decide" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Review decision" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Request a proof" }).count()).toBe(0);
    await page.getByRole("link", { name: "Proofs", exact: true }).click();
    await page.getByRole("table", { name: "Proofs" }).waitFor(slow);
    expect(await page.getByRole("button", { name: "Export as XLSX" }).count()).toBe(0);

    const auditorToken = await stack.userToken("demo-auditor", "demo-password");
    const refused = await stack.query(`mutation($id: ID!) { aopd { assessMediaProof(id: $id, assessment: VERIFIED) { status } } }`, auditorToken, { id });
    expect(refused.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect((await proofById(id))?.status).toBe("SUBMITTED");
  });

  it("renews the access token before it expires without losing the filter on screen", async () => {
    const customerId = `CUST-RENEW-${Date.now()}`;
    await uploadedMediaProof(customerId);
    const path = `/console/?status=SUBMITTED&customer=${customerId}&sort=CUSTOMER_ID:ASC`;
    const page = await signedIn(path);
    await page.getByRole("status").filter({ hasText: "1 proof, page 1 of 1" }).waitFor(slow);
    const firstToken = await page.evaluate(
      () => JSON.parse(sessionStorage.getItem(Object.keys(sessionStorage).find((key) => key.startsWith("oidc.user:"))!)!).access_token as string,
    );
    // The renewal: a refresh-token grant at the token endpoint, made by the page on its own.
    const renewal = await page.waitForResponse(
      (response) => response.url().endsWith("/protocol/openid-connect/token") && (response.request().postData() ?? "").includes("grant_type=refresh_token"),
      slow,
    );
    const renewed = ((await renewal.json()) as { access_token: string }).access_token;
    expect(renewed).not.toBe(firstToken);
    expect(new URL(page.url()).search).toBe(`?status=SUBMITTED&customer=${customerId}&sort=CUSTOMER_ID%3AASC`.replace("%3A", ":"));
    expect(await page.getByLabel("Customer", { exact: true }).inputValue()).toBe(customerId);
    // The next read carries the renewed token and still answers the same filter.
    const [read] = await Promise.all([
      page.waitForRequest((request) => request.url().endsWith("/graphql") && request.method() === "POST", slow),
      page.getByRole("button", { name: "Customer" }).click(),
    ]);
    expect(read.headers().authorization).not.toBe(`Bearer ${firstToken}`);
    await page.getByRole("status").filter({ hasText: "1 proof, page 1 of 1" }).waitFor(slow);
    expect(new URL(page.url()).searchParams.get("customer")).toBe(customerId);
  });

  it("speaks German to a German browser", async () => {
    const page = await signedIn("/console/", "demo-officer", { locale: "de-DE" });
    await page.getByRole("heading", { name: "Nachweise", level: 1 }).waitFor(slow);
    await page.getByRole("columnheader", { name: "Adresse" }).waitFor(slow);
    await page.getByRole("link", { name: /Zu prüfen/ }).waitFor();
    await page.getByRole("button", { name: "Filter anwenden" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("de");
    await page.getByLabel("Sprache").selectOption("en");
    await page.getByRole("heading", { name: "Proofs", level: 1 }).waitFor(slow);
  });
});

import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, pngImage } from "@compliance-graph/test-kit";
import { launchBrowser } from "../portal/support/browser.js";
import { apiQuery, signedIn, slow, uploadedMediaProof } from "./support/officer-pages.js";
import { startConsoleStack, type ConsoleStack } from "./support/start-console-stack.js";

/** A Bitcoin address on the OFAC SDN list of the newest bundled snapshot (packages/sanctions-lists/data), which aopd loads at start. */
const listedAddress = "13JtX4h7G5ZuNK5mFudKGq9DHLvvMFuNuz";

interface ScreenedProof {
  status: string;
  screening: {
    status: string;
    list: string | null;
    listVersion: string | null;
    matchedEntry: { asset: string; address: string; sdnName: string | null } | null;
  };
  legalHold: { reason: string } | null;
}

/**
 * Screening, the audit history and legal holds in the console, in a real browser against the
 * whole stack (gateway, aopd with the bundled sanctions list loaded at its start, the development
 * identity provider): a proof for a listed address shows as LISTED in the overview, the filter and
 * sort by screening reach the address bar and the API, and the queue and detail name the matched
 * entry and list version; the auditor reads the proof's history with the officer's decision and
 * the legal hold the officer placed and lifted after confirming. Each is checked against the API.
 */
describe("screening, history and legal hold in the officer console", { timeout: 240_000 }, () => {
  let stack: ConsoleStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startConsoleStack({ databaseUrl: await createTestDatabase("console_screening_history") });
    browser = await launchBrowser();
  }, 120_000);
  afterEach(async () => {
    for (const context of browser.contexts()) await context.close();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const proofById = (id: string) =>
    apiQuery<{ aopd: { proofs: ScreenedProof[] } }>(
      stack,
      `query($id: String!) { aopd { proofs(filter: { is: { any: { id: { eq: $id } } } }, limit: 1) {
        status legalHold { reason } screening { status list listVersion matchedEntry { asset address sdnName } }
      } } }`,
      { id },
    ).then((data) => data.aopd.proofs[0]!);

  it("marks a LISTED proof in the overview, filters and sorts by screening, and names the matched entry and list version in the queue and the detail", async () => {
    const customer = `CUST-LISTED-${Date.now()}`;
    const listedId = await uploadedMediaProof(stack, customer, pngImage(64, 48), listedAddress);
    const clearId = await uploadedMediaProof(stack, customer);
    const listed = await proofById(listedId);
    expect(listed.screening).toMatchObject({ status: "LISTED", list: "OFAC SDN", matchedEntry: { asset: "XBT", address: listedAddress } });
    expect(listed.screening.listVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await proofById(clearId)).screening.status).toBe("CLEAR");
    const version = listed.screening.listVersion!;

    const page = await signedIn(browser, stack, `/console/?customer=${customer}`);
    await page.getByRole("status").filter({ hasText: "2 proofs, page 1 of 1" }).waitFor(slow);
    const listedRow = page.getByRole("row").filter({ hasText: listedId });
    await listedRow.getByText("LISTED", { exact: true }).waitFor(slow);
    expect(await listedRow.getAttribute("data-screening")).toBe("LISTED");
    await page.getByRole("row").filter({ hasText: clearId }).getByText("Clear", { exact: true }).waitFor(slow);

    // Sorting by the column: CLEAR, LISTED, NOT_SCREENED ascending; the address bar carries it.
    await page.getByRole("button", { name: "Screening" }).click();
    await page.waitForURL(/sort=SCREENING(%3A|:)ASC/, slow);
    await page.getByRole("columnheader", { name: /Screening ▲/ }).waitFor(slow);
    expect(await page.getByRole("row").nth(1).textContent()).toContain(clearId);
    await page.getByRole("button", { name: /Screening/ }).click();
    await page.waitForURL(/sort=SCREENING(%3A|:)DESC/, slow);
    await page.getByRole("columnheader", { name: /Screening ▼/ }).waitFor(slow);
    expect(await page.getByRole("row").nth(1).textContent()).toContain(listedId);

    // The filter: only the listed proof, and the address bar says so (a link to it shows the same).
    // The filter's choices read as words beside "Clear" and "Not screened": the badge's capitals are for a row.
    await page.getByRole("group", { name: "Screening" }).getByLabel("Listed", { exact: true }).check();
    await page.getByRole("button", { name: "Apply filter" }).click();
    await page.waitForURL(/screening=LISTED/, slow);
    await page.getByRole("status").filter({ hasText: "1 proof, page 1 of 1" }).waitFor(slow);
    await page.getByRole("row").filter({ hasText: listedId }).waitFor(slow);
    expect(await page.getByRole("row").filter({ hasText: clearId }).count()).toBe(0);
    const shared = await signedIn(browser, stack, `/console/${new URL(page.url()).search}`);
    await shared.getByRole("status").filter({ hasText: "1 proof, page 1 of 1" }).waitFor(slow);
    expect(await shared.getByRole("group", { name: "Screening" }).getByLabel("Listed", { exact: true }).isChecked()).toBe(true);

    // The review queue: the matched entry and the version beside the LISTED badge.
    await page.getByRole("link", { name: /Waiting for review/ }).click();
    const queueRow = page.getByRole("row").filter({ hasText: listedId });
    await queueRow.getByText(`Matched entry: `, { exact: false }).waitFor(slow);
    expect(await queueRow.textContent()).toContain(listedAddress);
    expect(await queueRow.textContent()).toContain(`OFAC SDN, version ${version}`);

    // The detail: a warning at the top naming the list, its version and the entry; the screening section.
    await queueRow.getByRole("link", { name: listedId }).click();
    const notice = page.getByRole("alert", { name: "Sanctions list match" });
    await notice.getByText(`This address is on the sanctions list OFAC SDN (version ${version}).`).waitFor(slow);
    expect(await notice.textContent()).toContain(`XBT ${listedAddress}`);
    const section = page.getByRole("region", { name: "Sanctions screening" });
    await section.getByText(version, { exact: true }).waitFor(slow);
    await section.getByText(listedAddress, { exact: true }).waitFor(slow);
    // Which of the proof's addresses matched, and the screening's history: listed from its first screening on.
    await section.getByText(`the proven address: ${listedAddress}`, { exact: true }).waitFor(slow);
    await section.getByText("No change since the first screening.", { exact: true }).waitFor(slow);

    // German: the badge and the warning speak it too.
    const german = await signedIn(browser, stack, `/console/proofs/${listedId}`, "demo-officer", { locale: "de-DE" });
    await german
      .getByRole("alert", { name: "Treffer auf der Sanktionsliste" })
      .getByText(`Diese Adresse steht auf der Sanktionsliste OFAC SDN (Version ${version}).`)
      .waitFor(slow);
    await german.getByRole("region", { name: "Übersicht" }).getByText("GELISTET", { exact: true }).waitFor(slow);
    // The overview's screening filter, in German words too.
    await german.goto(`${stack.baseUrl}/console/?screening=LISTED`);
    const germanFilter = german.getByRole("group", { name: "Sanktionsprüfung" });
    expect(await germanFilter.getByLabel("Gelistet", { exact: true }).isChecked(slow)).toBe(true);
    expect(await germanFilter.getByLabel("Unauffällig", { exact: true }).isChecked()).toBe(false);
  });

  it("places and lifts a legal hold after confirming, and shows the auditor the history with the officer's decision and the holds", async () => {
    const id = await uploadedMediaProof(stack, `CUST-HOLD-${Date.now()}`);
    const officer = await signedIn(browser, stack, `/console/proofs/${id}`);
    await officer.getByRole("radio", { name: "Verified" }).check(slow);
    await officer.getByLabel("Your comment (kept apart from the requester's)").fill("address readable in the screenshot");
    await officer.getByRole("button", { name: "Review decision" }).click();
    await officer.getByRole("button", { name: "Confirm decision" }).click();
    await officer.getByRole("region", { name: "Overview" }).getByText("Verified", { exact: true }).waitFor(slow);

    // Placing: the reason is required, and nothing is sent before the confirmation.
    const place = officer.getByRole("region", { name: "Place a legal hold" });
    await place.getByRole("button", { name: "Review legal hold" }).click();
    await place.getByRole("alert").filter({ hasText: "Give the reason" }).waitFor(slow);
    await place.getByLabel("Reason for the legal hold (the matter or order)").fill("Court order 12/2026");
    await place.getByRole("button", { name: "Review legal hold" }).click();
    await place.getByText(`Place proof ${id} on legal hold for this reason:`).waitFor(slow);
    expect((await proofById(id)).legalHold).toBeNull();
    await place.getByRole("button", { name: "Place legal hold" }).click();
    await officer
      .getByRole("region", { name: "Overview" })
      .getByText(/: Court order 12\/2026$/)
      .waitFor(slow);
    expect((await proofById(id)).legalHold).toEqual({ reason: "Court order 12/2026" });

    // The officer lacks audit:read (docs/console.md): the decision record's history, not the trail.
    await officer
      .getByRole("region", { name: "History" })
      .getByText(/Decided · Verified · by demo-officer/)
      .waitFor(slow);
    expect(await officer.getByRole("table", { name: "Audit trail of this proof" }).count()).toBe(0);

    const lift = officer.getByRole("region", { name: "Lift the legal hold" });
    await lift.getByLabel("Why the legal hold ends").fill("Order withdrawn");
    await lift.getByRole("button", { name: "Review lifting the hold" }).click();
    await lift.getByText(`Lift the legal hold of proof ${id} for this reason:`).waitFor(slow);
    expect((await proofById(id)).legalHold).not.toBeNull();
    await lift.getByRole("button", { name: "Lift legal hold" }).click();
    await officer.getByRole("region", { name: "Place a legal hold" }).waitFor(slow);
    await officer.getByRole("region", { name: "Overview" }).getByText("none", { exact: true }).waitFor(slow);
    expect((await proofById(id)).legalHold).toBeNull();

    // The auditor: the proof's history from the trail, row for row as the API has it; no hold controls.
    const auditor = await signedIn(browser, stack, `/console/proofs/${id}`, "demo-auditor");
    const trail = auditor.getByRole("table", { name: "Audit trail of this proof" });
    await trail.waitFor(slow);
    const decided = trail.locator('tr[data-action="DECIDED"]');
    await decided.getByText(/^demo-officer \(/).waitFor(slow);
    expect(await decided.textContent()).toContain("address readable in the screenshot");
    const placed = trail.locator('tr[data-action="LEGAL_HOLD_PLACED"]');
    expect(await placed.textContent()).toContain("Legal hold placed");
    expect(await placed.textContent()).toContain("reason: Court order 12/2026");
    expect(await placed.textContent()).toMatch(/demo-officer \(/);
    expect(await trail.locator('tr[data-action="LEGAL_HOLD_LIFTED"]').textContent()).toContain("reason: Order withdrawn");
    const auditorToken = await stack.userToken("demo-auditor", "demo-password");
    const history = await stack.query(
      `query($id: String!) { aopd { proofs(filter: { is: { any: { id: { eq: $id } } } }, limit: 1) { history { action actor { username } } } } }`,
      auditorToken,
      { id },
    );
    const entries = (history.data as { aopd: { proofs: { history: { action: string; actor: { username: string | null } }[] }[] } }).aopd.proofs[0]!.history;
    // The officer's page shows the file on each render: as views (never downloads), one entry per officer and file
    // within the view window. Views are left out of the comparison, since the first may land after the auditor's read.
    expect(entries.filter((entry) => entry.action === "MEDIA_DOWNLOADED")).toEqual([]);
    expect(entries.filter((entry) => entry.action === "MEDIA_VIEWED").length).toBeLessThanOrEqual(1);
    const shownActions = await trail.locator("tbody tr").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-action")));
    const withoutDownloads = (actions: (string | null)[]) => actions.filter((action) => action !== "MEDIA_VIEWED");
    expect(withoutDownloads(shownActions)).toEqual(withoutDownloads(entries.map((entry) => entry.action)));
    expect(withoutDownloads(shownActions)).toEqual(["REQUESTED", "SUBMITTED", "DECIDED", "LEGAL_HOLD_PLACED", "LEGAL_HOLD_LIFTED"]);
    expect(entries.filter((entry) => entry.action === "DECIDED").map((entry) => entry.actor.username)).toEqual(["demo-officer"]);
    expect(await auditor.getByRole("region", { name: "Place a legal hold" }).count()).toBe(0);
    expect(await auditor.getByRole("button", { name: "Review legal hold" }).count()).toBe(0);
  });
});

import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { launchBrowser } from "../portal/support/browser.js";
import { apiQuery, reportedSatoshiProof, signedIn, slow, uploadedMediaProof } from "./support/officer-pages.js";
import { startConsoleStack, type ConsoleStack } from "./support/start-console-stack.js";

interface DecisionEntry {
  action: string;
  outcome: string | null;
  reason: string | null;
  reasonText: string | null;
  comment: string | null;
  decider: { username: string | null };
}
interface DecidedProof {
  status: string;
  decision: DecisionEntry | null;
  proposal: DecisionEntry | null;
  decisions: DecisionEntry[];
}

const entry = "action outcome reason reasonText comment decider { username }";
const selection = `decision { ${entry} } proposal { ${entry} } decisions { ${entry} }`;

/**
 * Corrections and four eyes in the console, in a real browser, against a stack where media
 * decisions need two officers (AOPD_FOUR_EYES_KINDS=media) and Satoshi ones do not: the proposer
 * sees the proposal is theirs and the API's refusal when trying to confirm it; a second officer,
 * signed in in a browser of their own, confirms or rejects; a decided proof is reopened with a
 * reason and decided again. What the console shows is checked against what the API then reports.
 */
describe("corrections and four eyes in the officer console", { timeout: 240_000 }, () => {
  let stack: ConsoleStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startConsoleStack({ databaseUrl: await createTestDatabase("console_four_eyes"), fourEyesKinds: ["media"] });
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
    apiQuery<{ aopd: { proofs: DecidedProof[] } }>(
      stack,
      `query($id: String!) { aopd { proofs(filter: { is: { any: { id: { eq: $id } } } }, limit: 1) { status ... on AopdMediaProof { ${selection} } ... on AopdSatoshiProof { ${selection} } } } }`,
      { id },
    ).then((data) => data.aopd.proofs[0]!);

  it("shows a proposal as awaiting a second officer; the proposer cannot confirm it, a second officer does", async () => {
    const id = await uploadedMediaProof(stack, `CUST-4EYES-${Date.now()}`);
    const proposer = await signedIn(browser, stack, `/console/proofs/${id}`);
    await proposer.getByRole("radio", { name: "Verified" }).check(slow);
    await proposer.getByLabel("Your comment (kept apart from the requester's)").fill("address readable in the screenshot");
    await proposer.getByRole("button", { name: "Review decision" }).click();
    // The step says what the click does under four eyes: it records a proposal, not a decision.
    await proposer.getByText(`Propose Verified for proof ${id}? This records a proposal only`).waitFor(slow);
    await proposer.getByRole("button", { name: "Record proposal" }).click();

    // A proposal, not a decision: the proof stays in review and the proposer is told it is theirs.
    const settle = proposer.getByRole("region", { name: "Confirm or reject the proposal" });
    await settle.getByText("You proposed this decision.", { exact: false }).waitFor(slow);
    await proposer
      .getByRole("region", { name: "Proposed decision, awaiting a second officer" })
      .getByText(/^demo-officer \(/)
      .waitFor(slow);
    expect(await proposer.getByRole("region", { name: "Overview" }).getByText("Submitted", { exact: true }).count()).toBe(1);
    expect(await proofById(id)).toMatchObject({
      status: "SUBMITTED",
      decision: null,
      proposal: { action: "PROPOSED", outcome: "VERIFIED", decider: { username: "demo-officer" } },
    });

    // Trying anyway: the API's CONFLICT, shown as what it means; nothing changes.
    await settle.getByRole("button", { name: "Confirm the proposal" }).click();
    await settle
      .getByRole("alert")
      .filter({ hasText: "Not allowed: four eyes. You proposed this decision (demo-officer); four eyes: a second, different officer must confirm it." })
      .waitFor(slow);
    expect((await proofById(id)).status).toBe("SUBMITTED");

    // The review queue says a second officer is awaited.
    const second = await signedIn(browser, stack, "/console/review", "demo-officer-2");
    await second.getByRole("row").filter({ hasText: id }).getByText("Verified: proposal awaiting a second officer").waitFor(slow);
    await second.getByRole("link", { name: id }).click();
    const secondSettle = second.getByRole("region", { name: "Confirm or reject the proposal" });
    await secondSettle.getByText("Another officer proposed this decision.", { exact: false }).waitFor(slow);
    await secondSettle.getByLabel("Your comment on confirming (optional)").fill("agree: the address is shown");
    await secondSettle.getByRole("button", { name: "Confirm the proposal" }).click();
    await second.getByRole("region", { name: "Overview" }).getByText("Verified", { exact: true }).waitFor(slow);
    await second
      .getByRole("region", { name: "Decision" })
      .getByText(/^demo-officer-2 \(/)
      .waitFor(slow);

    const proof = await proofById(id);
    expect(proof).toMatchObject({
      status: "VERIFIED",
      proposal: null,
      decision: { action: "CONFIRMED", outcome: "VERIFIED", comment: "agree: the address is shown", decider: { username: "demo-officer-2" } },
    });
    expect(proof.decisions.map((decision) => `${decision.action}:${decision.decider.username}`)).toEqual(["PROPOSED:demo-officer", "CONFIRMED:demo-officer-2"]);
    // The proposer's open page turns VERIFIED by itself (a status change is a live event).
    await proposer.getByRole("region", { name: "Overview" }).getByText("Verified", { exact: true }).waitFor(slow);
  });

  it("lets a second officer reject a proposal, with a reason, which returns the proof to review", async () => {
    const id = await uploadedMediaProof(stack, `CUST-REJECT-${Date.now()}`);
    const proposer = await signedIn(browser, stack, `/console/proofs/${id}`);
    await proposer.getByRole("radio", { name: "Failed" }).check(slow);
    await proposer.getByLabel("Reason", { exact: true }).selectOption({ label: "The file does not show the expected address" });
    await proposer.getByRole("button", { name: "Review decision" }).click();
    await proposer.getByRole("button", { name: "Record proposal" }).click();
    await proposer.getByRole("region", { name: "Confirm or reject the proposal" }).waitFor(slow);

    const second = await signedIn(browser, stack, `/console/proofs/${id}`, "demo-officer-2");
    const settle = second.getByRole("region", { name: "Confirm or reject the proposal" });
    // A rejection needs its reason; nothing is sent without it.
    await settle.getByRole("button", { name: "Reject the proposal" }).click(slow);
    await settle.getByRole("alert").filter({ hasText: "Say why you reject the proposal." }).waitFor(slow);
    expect((await proofById(id)).proposal).not.toBeNull();
    await settle.getByLabel("Why you reject the proposal").fill("the address is in the second frame");
    await settle.getByRole("button", { name: "Reject the proposal" }).click();
    // Back in review: the decision form again, no proposal.
    await second.getByRole("button", { name: "Review decision" }).waitFor(slow);
    expect(await second.getByRole("region", { name: "Confirm or reject the proposal" }).count()).toBe(0);
    expect(await proofById(id)).toMatchObject({ status: "SUBMITTED", proposal: null, decision: null });
    expect((await proofById(id)).decisions.map((decision) => `${decision.action}:${decision.decider.username}`)).toEqual([
      "PROPOSED:demo-officer",
      "REJECTED:demo-officer-2",
    ]);
    await second
      .getByRole("region", { name: "History" })
      .getByText(/Proposal rejected · by demo-officer-2/)
      .waitFor(slow);
  });

  it("reopens a decided proof with a reason: back to review, the earlier decision kept in its history, decided again", async () => {
    const { id } = await reportedSatoshiProof(stack, `CUST-REOPEN-${Date.now()}`);
    const page = await signedIn(browser, stack, `/console/proofs/${id}`);
    await page.getByRole("radio", { name: "Failed" }).check(slow);
    await page.getByLabel("Reason", { exact: true }).selectOption({ label: "The transaction pays another amount" });
    await page.getByRole("button", { name: "Review decision" }).click();
    await page.getByRole("button", { name: "Confirm decision" }).click();
    const correct = page.getByRole("region", { name: "Correct the decision" });
    await correct.waitFor(slow);

    // The reason is required, and a confirmation step comes before anything is sent.
    await correct.getByRole("button", { name: "Reopen the proof" }).click();
    await correct.getByRole("alert").filter({ hasText: "Say why the decision is reopened." }).waitFor(slow);
    await correct.getByLabel("Why the decision is reopened").fill("the customer sent the full amount in a second output");
    await correct.getByRole("button", { name: "Reopen the proof" }).click();
    await correct.getByText(`Reopen proof ${id} and set its decision aside?`).waitFor(slow);
    expect((await proofById(id)).status).toBe("FAILED");
    await correct.getByRole("button", { name: "Confirm reopening" }).click();

    await page.getByRole("region", { name: "Overview" }).getByText("Submitted", { exact: true }).waitFor(slow);
    await page
      .getByRole("region", { name: "History" })
      .getByText(/Reopened · by demo-officer .*the customer sent the full amount in a second output/)
      .waitFor(slow);
    expect(await proofById(id)).toMatchObject({ status: "SUBMITTED", decision: null });

    await page.getByRole("radio", { name: "Verified" }).check();
    await page.getByRole("button", { name: "Review decision" }).click();
    await page.getByRole("button", { name: "Confirm decision" }).click();
    await page.getByRole("region", { name: "Overview" }).getByText("Verified", { exact: true }).waitFor(slow);
    const proof = await proofById(id);
    expect(proof.status).toBe("VERIFIED");
    expect(proof.decisions.map((decision) => `${decision.action}:${decision.outcome ?? "-"}`)).toEqual(["DECIDED:FAILED", "REOPENED:-", "DECIDED:VERIFIED"]);
  });

  it("makes reopening a media proof (under four eyes) a proposal, which the API's service account cannot confirm and a second officer does", async () => {
    const id = await uploadedMediaProof(stack, `CUST-REOPEN-4EYES-${Date.now()}`);
    const first = await stack.userToken("demo-officer", "demo-password");
    const second = await stack.userToken("demo-officer-2", "demo-password");
    const mutate = async (token: string, mutation: string, variables: Record<string, unknown>) => stack.query(`mutation${mutation}`, token, variables);
    expect((await mutate(first, `($id: ID!) { aopd { assessMediaProof(id: $id, assessment: VERIFIED) { status } } }`, { id })).errors).toBeUndefined();
    expect((await mutate(second, `($id: ID!) { aopd { confirmProofDecision(id: $id) { status } } }`, { id })).errors).toBeUndefined();

    const page = await signedIn(browser, stack, `/console/proofs/${id}`);
    const correct = page.getByRole("region", { name: "Correct the decision" });
    await correct.getByText("Four eyes: reopening is a proposal.", { exact: false }).waitFor(slow);
    await correct.getByLabel("Why the decision is reopened").fill("the screenshot belongs to another customer");
    await correct.getByRole("button", { name: "Propose reopening" }).click();
    await correct.getByText(`Propose reopening proof ${id}? Its decision stays in force until a second officer confirms.`).waitFor(slow);
    await correct.getByRole("button", { name: "Propose reopening" }).click();
    await page.getByRole("region", { name: "Confirm or reject the proposal" }).getByText("You proposed this decision.", { exact: false }).waitFor(slow);
    expect(await page.getByRole("region", { name: "Overview" }).getByText("Verified", { exact: true }).count()).toBe(1);
    expect(await proofById(id)).toMatchObject({
      status: "VERIFIED",
      proposal: { action: "REOPEN_PROPOSED", reasonText: "the screenshot belongs to another customer", decider: { username: "demo-officer" } },
    });

    // The attack: the development realm's API client (client credentials) as the "second officer".
    const byService = await mutate(await stack.apiToken(), `($id: ID!) { aopd { confirmProofDecision(id: $id) { status } } }`, { id });
    expect(byService.errors?.[0]).toMatchObject({ extensions: { code: "FORBIDDEN", client: "dev-api-client" } });
    expect((await proofById(id)).status).toBe("VERIFIED");

    const confirmed = await mutate(second, `($id: ID!) { aopd { confirmProofDecision(id: $id, comment: "agreed") { status } } }`, { id });
    expect(confirmed.errors).toBeUndefined();
    const proof = await proofById(id);
    expect(proof).toMatchObject({ status: "SUBMITTED", decision: null, proposal: null });
    expect(proof.decisions.map((decision) => `${decision.action}:${decision.decider.username}`)).toEqual([
      "PROPOSED:demo-officer",
      "CONFIRMED:demo-officer-2",
      "REOPEN_PROPOSED:demo-officer",
      "REOPENED:demo-officer-2",
    ]);
  });

  it("shows the auditor no correction or settlement controls", async () => {
    const id = await uploadedMediaProof(stack, `CUST-AUDIT-4EYES-${Date.now()}`);
    const token = await stack.userToken("demo-officer", "demo-password");
    const proposed = await stack.query(`mutation($id: ID!) { aopd { assessMediaProof(id: $id, assessment: VERIFIED) { status } } }`, token, { id });
    expect(proposed.errors).toBeUndefined();
    const page = await signedIn(browser, stack, `/console/proofs/${id}`, "demo-auditor");
    await page.getByRole("region", { name: "Proposed decision, awaiting a second officer" }).waitFor(slow);
    expect(await page.getByRole("button", { name: "Confirm the proposal" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Reopen the proof" }).count()).toBe(0);
  });
});

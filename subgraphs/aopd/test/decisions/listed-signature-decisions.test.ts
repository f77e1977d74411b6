import type { Identity } from "@compliance-graph/identity";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assessSignatureProof } from "../../src/kinds/signature/assess-signature-proof.js";
import { issueProofReceipt } from "../../src/receipts/issue-proof-receipt.js";
import {
  refusal,
  signatureProofFields as fields,
  startListedSignatureReview,
  type ListedSignatureReview,
  type SignatureProofRow as Row,
} from "../support/listed-signature-review.js";
import { databaseDrivers } from "../support/test-database.js";

const alice: Identity = {
  subject: "alice-subject",
  client: "compliance-console",
  username: "alice",
  roles: ["proofs:read", "proofs:assess", "proofs:export", "audit:read"],
};
const bob: Identity = { subject: "bob-subject", client: "compliance-console", username: "bob", roles: ["proofs:read", "proofs:assess", "audit:read"] };

/**
 * Issue 35: a signature that proves a LISTED address under AOPD_SCREENING_POLICY=refuse is left
 * SUBMITTED for review; an officer must be able to decide it (no one could: the signature kind is
 * decided by its evidence), through the path every officer decision takes: decision row, trail
 * entry, four eyes where the deployment names `signature`, the status change's event, and the
 * receipt policy for a listed address. Any other signature proof stays out of an officer's hands.
 */
describe.each(databaseDrivers)("deciding a signature proof left for review by screening on %s", (driver) => {
  let review: ListedSignatureReview;
  let aopd: ListedSignatureReview["aopd"];
  beforeAll(async () => {
    review = await startListedSignatureReview(driver, "listed signature decisions");
    aopd = review.aopd;
  }, 240_000);
  afterAll(async () => {
    await review?.close();
  });

  const run: ListedSignatureReview["run"] = (...args) => review.run(...args);
  const assess: ListedSignatureReview["assess"] = (...args) => review.assess(...args);
  const confirm = (identity: Identity, id: string) =>
    run(identity, `mutation($id: ID!) { aopd { confirmProofDecision(id: $id, comment: "agreed") { ... on AopdSignatureProof { ${fields} } } } }`, { id });
  const trailOf = async (id: string) =>
    (
      await aopd.services.db
        .selectFrom("aopd_audit_entry")
        .select(["action", "actor_subject", "details"])
        .where("proof_id", "=", id)
        .orderBy("insertion")
        .execute()
    ).map((row) => ({ action: row.action, actor: row.actor_subject, details: JSON.parse(row.details) as Record<string, unknown> }));
  const eventStatuses = async (id: string) =>
    (
      await sql<{ status: string }>`SELECT proof->>'status' AS status FROM aopd_proof_event WHERE proof->>'id' = ${id} ORDER BY insertion`.execute(
        aopd.services.db,
      )
    ).rows.map((row) => row.status);

  it("describes the signature kind as decided by an officer when left for review, under four eyes here, with its own reason codes", async () => {
    const { body } = await aopd.queryAs(
      alice,
      `{ aopd { configuration { proofKinds { name decidedByOfficer decidedByOfficerWhenLeftForReview decisionReasons fourEyes } } } }`,
    );
    expect(body.errors).toBeUndefined();
    const kinds = (body.data!.aopd as { configuration: { proofKinds: Record<string, unknown>[] } }).configuration.proofKinds;
    expect(kinds.find((kind) => kind.name === "signature")).toEqual({
      name: "signature",
      decidedByOfficer: false,
      decidedByOfficerWhenLeftForReview: true,
      decisionReasons: ["SANCTIONED_ADDRESS", "OTHER"],
      fourEyes: true,
    });
    expect(kinds.find((kind) => kind.name === "media")).toMatchObject({ decidedByOfficer: true, decidedByOfficerWhenLeftForReview: true });
  });

  it("lets one officer propose VERIFIED only with a stated reason, and a second confirm it; the trail, history and events record it, and no receipt is issued", async () => {
    const id = await review.signedProof(review.listed);
    const submitted = await run(
      alice,
      `query($id: String!) { aopd { proofs(filter: { is: { any: { id: { eq: $id } } } }, limit: 1) { ... on AopdSignatureProof { ${fields} } } } }`,
      {
        id,
      },
    );
    expect((submitted as unknown as Row[])[0]).toMatchObject({ status: "SUBMITTED", leftForReview: "SCREENING", decision: null, decisions: [] });

    expect(await refusal(assess(alice, id, "assessment: VERIFIED"))).toMatchObject({ code: "BAD_USER_INPUT", field: "reasonText" });
    const reasonText = "The listed entry is the customer's former exchange deposit address; risk accepted by the MLRO.";
    const proposed = await assess(alice, id, `assessment: VERIFIED, reasonText: ${JSON.stringify(reasonText)}`);
    expect(proposed).toMatchObject({ status: "SUBMITTED", proposal: { action: "PROPOSED", outcome: "VERIFIED", reasonText, decider: { username: "alice" } } });
    // Four eyes: the proposer cannot confirm their own proposal.
    expect(await refusal(confirm(alice, id))).toMatchObject({ code: "CONFLICT" });
    const confirmed = await confirm(bob, id);
    expect(confirmed).toMatchObject({
      status: "VERIFIED",
      leftForReview: "SCREENING",
      assessment: "VERIFIED",
      proposal: null,
      decision: { action: "CONFIRMED", outcome: "VERIFIED", reasonText, comment: "agreed", decider: { username: "bob" } },
    });
    expect(confirmed.decisions.map((decision) => decision.action)).toEqual(["PROPOSED", "CONFIRMED"]);

    const trail = await trailOf(id);
    expect(trail.map((step) => step.action)).toEqual(["REQUESTED", "SUBMITTED", "PROPOSED", "CONFIRMED"]);
    expect(trail[1]!.details).toMatchObject({ leftForReview: "screening" });
    expect(trail[2]).toMatchObject({ actor: "alice-subject", details: { outcome: "VERIFIED", reasonText } });
    expect(trail[3]).toMatchObject({ actor: "bob-subject", details: { outcome: "VERIFIED", comment: "agreed" } });
    expect(await eventStatuses(id)).toEqual(["PENDING", "SUBMITTED", "VERIFIED"]);

    // AOPD_RECEIPT_FOR_LISTED is refuse by default: a VERIFIED proof of a listed address gets no receipt.
    expect(await refusal(run(alice, `query($id: ID!) { aopd { proofReceipt(id: $id) { jws } } }`, { id }))).toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("LISTED"),
    });
    // A deployment that issues receipts for listed addresses states the officer's decision, not the signature's, and the screening.
    const receipt = await issueProofReceipt(aopd.services.db, aopd.services.config.assets, aopd.services.receiptSigner, { forListed: "issue" }, id);
    expect(receipt.statement).toMatchObject({
      method: { kind: "signature", signatureScheme: "BIP322_SIMPLE" },
      decision: { outcome: "VERIFIED", action: "CONFIRMED", decider: { username: "bob" } },
      screening: { status: "LISTED" },
    });
    expect(JSON.parse(receipt.log?.entry ?? "{}")).toMatchObject({ action: "CONFIRMED" });
    // Decided: a second decision is refused as for any kind.
    expect(await refusal(assess(alice, id, "assessment: FAILED, reason: SANCTIONED_ADDRESS"))).toMatchObject({ code: "CONFLICT" });
  });

  it("fails a listed signature with a reason of the kind (SANCTIONED_ADDRESS), refusing a reason of another kind", async () => {
    const id = await review.signedProof(review.listed);
    expect(await refusal(assess(alice, id, "assessment: FAILED"))).toMatchObject({ code: "BAD_USER_INPUT", field: "reason" });
    expect(await refusal(assess(alice, id, "assessment: FAILED, reason: WRONG_AMOUNT"))).toMatchObject({
      code: "BAD_USER_INPUT",
      field: "reason",
      message: expect.stringContaining("allowed: SANCTIONED_ADDRESS, OTHER"),
    });
    await assess(alice, id, "assessment: FAILED, reason: SANCTIONED_ADDRESS");
    expect(await confirm(bob, id)).toMatchObject({ status: "FAILED", assessment: "FAILED", decision: { action: "CONFIRMED", reason: "SANCTIONED_ADDRESS" } });
    expect(await eventStatuses(id)).toEqual(["PENDING", "SUBMITTED", "FAILED"]);
  });

  it("decides directly, one officer, where the deployment does not put signature proofs under four eyes", async () => {
    const id = await review.signedProof(review.listed);
    const decider = { subject: "carol-subject", client: "compliance-console", username: "carol", system: false };
    const row = await assessSignatureProof(
      aopd.services.db,
      { fourEyesKinds: [], fourEyesServiceClients: [] },
      id,
      { assessment: "FAILED", reason: "SANCTIONED_ADDRESS" },
      decider,
      null,
    );
    expect(row).toMatchObject({
      status: "FAILED",
      assessment: "FAILED",
      decision_reason: "SANCTIONED_ADDRESS",
      decider_username: "carol",
      left_for_review: "screening",
    });
    const trail = await trailOf(id);
    expect(trail.at(-1)).toMatchObject({ action: "DECIDED", actor: "carol-subject", details: { outcome: "FAILED", reason: "SANCTIONED_ADDRESS" } });
  });

  it("refuses to decide a signature proof its signature decided, or one SUBMITTED without a listed review, naming why", async () => {
    const verified = await review.signedProof(review.clear);
    expect(await refusal(assess(alice, verified, "assessment: FAILED, reason: SANCTIONED_ADDRESS"))).toEqual({
      code: "CONFLICT",
      field: undefined,
      message: expect.stringMatching(/^The signature proof is VERIFIED and was not left for review: its signature decides it\./),
    });
    // A signature proof SUBMITTED by other means than a listed review (written behind aopd's back) stays the signature's.
    const unreviewed = await review.signedProof(review.clear);
    await aopd.services.db.updateTable("aopd_proof").set({ status: "SUBMITTED", signature_scheme: null }).where("id", "=", unreviewed).execute();
    const refused = await refusal(assess(alice, unreviewed, `assessment: VERIFIED, reasonText: "no"`));
    expect(refused).toMatchObject({ code: "CONFLICT", message: expect.stringContaining("SUBMITTED and was not left for review") });
    const decisions = await aopd.services.db.selectFrom("aopd_proof_decision").select("id").where("proof_id", "in", [verified, unreviewed]).execute();
    expect(decisions).toEqual([]);
  });
});

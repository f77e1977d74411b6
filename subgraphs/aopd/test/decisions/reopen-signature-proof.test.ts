import type { Identity } from "@compliance-graph/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditKeyring } from "../../src/audit/audit-keyring.js";
import { replayTrailAgainstTables } from "../../src/audit/replay-trail-against-tables.js";
import { reopenProof } from "../../src/decisions/reopen-proof.js";
import { officerDecides } from "../../src/kinds/proof-kinds.js";
import { assessSignatureProof } from "../../src/kinds/signature/assess-signature-proof.js";
import { issueProofReceipt } from "../../src/receipts/issue-proof-receipt.js";
import { refusal, signatureProofFields as fields, startListedSignatureReview, type ListedSignatureReview } from "../support/listed-signature-review.js";
import { databaseDrivers } from "../support/test-database.js";

const alice: Identity = { subject: "alice-subject", client: "compliance-console", username: "alice", roles: ["proofs:read", "proofs:assess"] };
const bob: Identity = { subject: "bob-subject", client: "compliance-console", username: "bob", roles: ["proofs:read", "proofs:assess"] };
const carol = { subject: "carol-subject", client: "compliance-console", username: "carol", system: false };
const oneOfficer = { fourEyesKinds: [], fourEyesServiceClients: [] };

/**
 * A signature proof an officer decided (its evidence left it for review: a LISTED address under
 * AOPD_SCREENING_POLICY=refuse) can be reopened as a Satoshi or media proof can: a reason, four
 * eyes where the deployment names `signature`, the decision kept in the history and on the trail,
 * and the proof SUBMITTED for review again, to be decided anew. A signature proof its signature
 * decided has no officer's decision to set aside, and stays refused.
 */
describe.each(databaseDrivers)("reopening a signature proof an officer decided on %s", (driver) => {
  let review: ListedSignatureReview;
  let aopd: ListedSignatureReview["aopd"];
  beforeAll(async () => {
    review = await startListedSignatureReview(driver, "reopen signature proof");
    aopd = review.aopd;
  }, 240_000);
  afterAll(async () => {
    await review?.close();
  });

  const run: ListedSignatureReview["run"] = (...args) => review.run(...args);
  const assess: ListedSignatureReview["assess"] = (...args) => review.assess(...args);
  const settle = (identity: Identity, id: string, mutation: "confirmProofDecision" | "rejectProofDecision", args: string) =>
    run(identity, `mutation($id: ID!) { aopd { ${mutation}(id: $id, ${args}) { ... on AopdSignatureProof { ${fields} } } } }`, { id });
  const reopen = (identity: Identity, id: string, reason: string) =>
    run(identity, `mutation($id: ID!, $reason: String!) { aopd { reopenProof(id: $id, reason: $reason) { ... on AopdSignatureProof { ${fields} } } } }`, {
      id,
      reason,
    });
  const trailActions = async (id: string) =>
    (await aopd.services.db.selectFrom("aopd_audit_entry").select("action").where("proof_id", "=", id).orderBy("insertion").execute()).map((row) => row.action);
  const acceptedReason = `assessment: VERIFIED, reasonText: "The listed entry is the customer's former exchange address; risk accepted."`;

  it("under four eyes: one officer proposes the reopening, a second confirms it; the proof is SUBMITTED for review again and decided anew", async () => {
    const id = await review.signedProof(review.listed);
    await assess(alice, id, acceptedReason);
    await settle(bob, id, "confirmProofDecision", `comment: "agreed"`);
    const receipt = await issueProofReceipt(aopd.services.db, aopd.services.config.assets, aopd.services.receiptSigner, { forListed: "issue" }, id);
    await run(alice, `mutation($id: ID!) { aopd { placeLegalHold(id: $id, reason: "inquiry 7") { id } } }`, { id });

    expect(await refusal(reopen(alice, id, "  "))).toMatchObject({ code: "BAD_USER_INPUT", field: "reason" });
    const proposed = await reopen(alice, id, "The customer's exchange denies the address was ever theirs.");
    expect(proposed).toMatchObject({
      status: "VERIFIED",
      decision: { action: "CONFIRMED", outcome: "VERIFIED" },
      proposal: { action: "REOPEN_PROPOSED", reasonText: "The customer's exchange denies the address was ever theirs.", decider: { username: "alice" } },
    });
    // Four eyes: the proposer cannot confirm their own reopening; a rejection keeps the decision in force.
    expect(await refusal(settle(alice, id, "confirmProofDecision", `comment: "me"`))).toMatchObject({ code: "CONFLICT" });
    expect(await settle(bob, id, "rejectProofDecision", `reason: "the exchange's letter is unsigned"`)).toMatchObject({ status: "VERIFIED", proposal: null });
    await reopen(alice, id, "The exchange's signed letter arrived.");
    const reopened = await settle(bob, id, "confirmProofDecision", `comment: "read the letter"`);
    expect(reopened).toMatchObject({ status: "SUBMITTED", leftForReview: "SCREENING", assessment: null, decision: null, proposal: null });
    expect(reopened.decisions.map((decision) => decision.action)).toEqual([
      "PROPOSED",
      "CONFIRMED",
      "REOPEN_PROPOSED",
      "REJECTED",
      "REOPEN_PROPOSED",
      "REOPENED",
    ]);
    expect(reopened.decisions.at(-1)).toMatchObject({
      reasonText: "The exchange's signed letter arrived.",
      comment: "read the letter",
      decider: { username: "bob" },
    });
    const revoked = await aopd.services.db.selectFrom("aopd_receipt").select("revoked_reason").where("id", "=", receipt.receiptId).executeTakeFirstOrThrow();
    expect(revoked.revoked_reason).toBe("reopened");

    await assess(bob, id, "assessment: FAILED, reason: SANCTIONED_ADDRESS");
    const decidedAgain = await settle(alice, id, "confirmProofDecision", `comment: "agreed"`);
    expect(decidedAgain).toMatchObject({
      status: "FAILED",
      leftForReview: "SCREENING",
      decision: { action: "CONFIRMED", outcome: "FAILED", reason: "SANCTIONED_ADDRESS" },
    });
    expect(await trailActions(id)).toEqual([
      "REQUESTED",
      "SUBMITTED",
      "PROPOSED",
      "CONFIRMED",
      "LEGAL_HOLD_PLACED",
      "REOPEN_PROPOSED",
      "REJECTED",
      "REOPEN_PROPOSED",
      "REOPENED",
      "PROPOSED",
      "CONFIRMED",
    ]);
  });

  it("one officer reopens directly where signature proofs are not under four eyes, and decides again", async () => {
    const id = await review.signedProof(review.listed);
    await assessSignatureProof(aopd.services.db, oneOfficer, id, { assessment: "FAILED", reason: "SANCTIONED_ADDRESS" }, carol, null);
    const reopened = await reopenProof(aopd.services.db, oneOfficer, id, "Failed the wrong customer's proof.", carol, null, officerDecides);
    expect(reopened).toMatchObject({ status: "SUBMITTED", left_for_review: "screening", assessment: null, decision_id: null, proposal_id: null });
    const decided = await assessSignatureProof(
      aopd.services.db,
      oneOfficer,
      id,
      { assessment: "VERIFIED", reasonText: "Risk accepted by the MLRO after review." },
      carol,
      null,
    );
    expect(decided).toMatchObject({ status: "VERIFIED", assessment: "VERIFIED", decider_username: "carol", left_for_review: "screening" });
    const history = await aopd.services.db
      .selectFrom("aopd_proof_decision")
      .select(["action", "outcome"])
      .where("proof_id", "=", id)
      .orderBy("recorded")
      .execute();
    expect(history.map((row) => row.action)).toEqual(["DECIDED", "REOPENED", "DECIDED"]);
    expect(await trailActions(id)).toEqual(["REQUESTED", "SUBMITTED", "DECIDED", "REOPENED", "DECIDED"]);
  });

  it("refuses to reopen a signature proof its signature decided, naming why, and changes nothing", async () => {
    const id = await review.signedProof(review.clear);
    expect(await refusal(reopen(alice, id, "The customer asks for it."))).toEqual({
      code: "BAD_USER_INPUT",
      field: "id",
      message: expect.stringMatching(/signature proof that is VERIFIED and was not left for an officer's review: its evidence decides it/),
    });
    await expect(reopenProof(aopd.services.db, oneOfficer, id, "directly", carol, null, officerDecides)).rejects.toThrow(/no officer's decision to set aside/);
    const row = await aopd.services.db.selectFrom("aopd_proof").select(["status", "proposal_id"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "VERIFIED", proposal_id: null });
    expect(await aopd.services.db.selectFrom("aopd_proof_decision").select("id").where("proof_id", "=", id).execute()).toEqual([]);
  });

  it("leaves a trail the audit replay finds consistent with the tables", async () => {
    expect(await replayTrailAgainstTables(aopd.services.db, auditKeyring())).toMatchObject({ findings: [] });
  });
});

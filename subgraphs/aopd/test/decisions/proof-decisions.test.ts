import { sql } from "kysely";
import type { Identity } from "@compliance-graph/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAopdWithOfficers, type AopdWithOfficers } from "../support/aopd-with-officers.js";
import { pngImage, readWorkbook } from "@compliance-graph/test-kit";
import { portalApi } from "../support/portal-client.js";
import { databaseDrivers } from "../support/test-database.js";

const bitcoin = "DTI4H95J0R2X";
const address = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const deposit = "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h";

const requester: Identity = {
  subject: "sa-requests",
  client: "intake-service",
  username: "service-account-intake",
  roles: ["proofs:read", "proofs:write", "proofs:export"],
};
const alice: Identity = {
  subject: "3f0c9a7e-alice",
  client: "compliance-console",
  username: "alice",
  roles: ["proofs:read", "proofs:assess", "proofs:export"],
};
const bob: Identity = { subject: "8d21b4c2-bob", client: "compliance-console", username: "bob", roles: ["proofs:read", "proofs:assess"] };

const decisionFields = "id action decidedAt outcome reason reasonText comment decider { subject username client system }";
/** The fields of a decidable proof's concrete type (media or Satoshi: both have them). */
const decidedFields = `id status comment assessment decision { ${decisionFields} } decisions { ${decisionFields} }`;
/** The same through the interface (`proofs`, `reopenProof`). */
const proofFields = `... on AopdMediaProof { ${decidedFields} } ... on AopdSatoshiProof { ${decidedFields} }`;

type Row = Record<string, unknown> & { id: string; status: string; decision: Record<string, unknown> | null; decisions: Record<string, unknown>[] };

describe.each(databaseDrivers)("decisions on the record on %s", (driver) => {
  let aopd: AopdWithOfficers;
  const run = async (identity: Identity, query: string, variables: Record<string, unknown> = {}) => {
    const { body } = await aopd.queryAs(identity, query, variables);
    if (body.errors) throw Object.assign(new Error(body.errors[0]!.message), { extensions: body.errors[0]!.extensions });
    return body.data!;
  };
  const mutate = async (identity: Identity, mutation: string, variables: Record<string, unknown>) =>
    Object.values((await run(identity, `mutation${mutation}`, variables)).aopd as Record<string, Row>)[0]!;
  const readProof = async (id: string) =>
    (
      (await run(alice, `query($id: String!) { aopd { proofs(limit: 1, filter: { is: { any: { id: { eq: $id } } } }) { ${proofFields} } } }`, { id })).aopd as {
        proofs: Row[];
      }
    ).proofs[0]!;
  const decisionRows = async (id: string) =>
    Number((await sql<{ n: string }>`SELECT count(*) AS n FROM aopd_proof_decision WHERE proof_id = ${id}`.execute(aopd.services.db)).rows[0]!.n);

  /** A media proof with its file uploaded: SUBMITTED, waiting for a decision. */
  const submittedMediaProof = async () => {
    const requested = await mutate(requester, `($input: AopdRequestMediaProofInput!) { aopd { requestMediaProof(input: $input) { id portalUrl } } }`, {
      input: { customerId: "CUST-DECISIONS", asset: bitcoin, expectedAddress: address, comment: "requested by onboarding" },
    });
    const token = (requested.portalUrl as string).split("/").pop()!;
    const uploaded = await portalApi(aopd, `${token}/media`, {
      method: "POST",
      headers: { "content-type": "image/png" },
      body: new Uint8Array(pngImage(32, 32)),
    });
    expect(uploaded.status).toBe(200);
    return requested.id;
  };
  /** A Satoshi proof whose transaction was reported: SUBMITTED. */
  const submittedSatoshiProof = async () => {
    const requested = await mutate(requester, `($input: AopdRequestSatoshiProofInput!) { aopd { requestSatoshiProof(input: $input) { id } } }`, {
      input: { customerId: "CUST-DECISIONS", asset: bitcoin, senderAddress: address, depositAddress: deposit, comment: "requested by onboarding" },
    });
    await mutate(requester, `($id: ID!, $txId: String!) { aopd { finalizeSatoshiProof(id: $id, txId: $txId) { id } } }`, {
      id: requested.id,
      txId: "ab".repeat(32),
    });
    return requested.id;
  };
  const assessMedia = (identity: Identity, variables: Record<string, unknown>) =>
    mutate(
      identity,
      `($id: ID!, $assessment: AopdAssessment!, $reason: AopdDecisionReason, $reasonText: String, $comment: String) { aopd { assessMediaProof(id: $id, assessment: $assessment, reason: $reason, reasonText: $reasonText, comment: $comment) { ${decidedFields} } } }`,
      variables,
    );
  const reopen = (identity: Identity, id: string, reason: string) =>
    mutate(identity, `($id: ID!, $reason: String!) { aopd { reopenProof(id: $id, reason: $reason) { ${proofFields} } } }`, { id, reason });

  beforeAll(async () => {
    aopd = await startAopdWithOfficers(driver);
    // Starting PGlite (WebAssembly) and migrating takes long on a busy machine.
  }, 180_000);
  afterAll(async () => {
    await aopd?.close();
  });

  it("records the officer who decided a media proof, when and with which comment, and keeps the requester's comment", async () => {
    const id = await submittedMediaProof();
    const decided = await assessMedia(alice, { id, assessment: "VERIFIED", comment: "address visible in the wallet app" });
    const decision = {
      action: "DECIDED",
      outcome: "VERIFIED",
      reason: null,
      reasonText: null,
      comment: "address visible in the wallet app",
      decider: { subject: alice.subject, username: "alice", client: "compliance-console", system: false },
    };
    expect(decided).toMatchObject({ status: "VERIFIED", assessment: "VERIFIED", comment: "requested by onboarding", decision, decisions: [decision] });
    expect(decided.decision!.id).toBe(decided.decisions[0]!.id);
    // The time is the database's: within the test's own run, and the same in the copy and the history.
    expect(Date.now() - Date.parse(decided.decision!.decidedAt as string)).toBeLessThan(60_000);
    expect(decided.decision!.decidedAt).toBe(decided.decisions[0]!.decidedAt);
    expect(await readProof(id)).toEqual(decided);
  });

  it("records a Satoshi proof's FAILED decision with its reason code and text", async () => {
    const id = await submittedSatoshiProof();
    const decided = await mutate(
      bob,
      `($id: ID!) { aopd { assessSatoshiProof(id: $id, assessment: FAILED, reason: WRONG_AMOUNT, reasonText: "sent 0.001 instead of the amount asked") { ${decidedFields} } } }`,
      { id },
    );
    expect(decided).toMatchObject({
      status: "FAILED",
      comment: "requested by onboarding",
      decision: {
        outcome: "FAILED",
        reason: "WRONG_AMOUNT",
        reasonText: "sent 0.001 instead of the amount asked",
        comment: null,
        decider: { username: "bob", subject: bob.subject },
      },
    });
  });

  it("lists in configuration every reason code of AopdDecisionReason, in the documented order, for forms to offer", async () => {
    const data = (await run(alice, `{ aopd { configuration { decisionReasons } } __type(name: "AopdDecisionReason") { enumValues { name } } }`)) as {
      aopd: { configuration: { decisionReasons: string[] } };
      __type: { enumValues: { name: string }[] };
    };
    const listed = data.aopd.configuration.decisionReasons;
    expect([...listed].sort()).toEqual(data.__type.enumValues.map((value) => value.name).sort());
    expect(listed[0]).toBe("ADDRESS_NOT_SHOWN");
    expect(listed.at(-1)).toBe("OTHER");
  });

  it("refuses FAILED without a reason, a reason of another kind, OTHER without a text, and a blank comment, naming the argument, and changes nothing", async () => {
    const id = await submittedMediaProof();
    await expect(assessMedia(alice, { id, assessment: "FAILED" })).rejects.toMatchObject({
      message: expect.stringMatching(/^reason: is required when the assessment is FAILED: one of ADDRESS_NOT_SHOWN, .*OTHER/),
      extensions: { code: "BAD_USER_INPUT", field: "reason" },
    });
    // A Satoshi proof's reason does not fit a file: the kind's own codes are named.
    await expect(assessMedia(alice, { id, assessment: "FAILED", reason: "WRONG_AMOUNT" })).rejects.toMatchObject({
      message:
        "reason: WRONG_AMOUNT is not a reason code of this kind of proof; allowed: ADDRESS_NOT_SHOWN, EVIDENCE_UNREADABLE, SUSPECTED_MANIPULATION, THIRD_PARTY_WALLET, OTHER.",
      extensions: { code: "BAD_USER_INPUT", field: "reason" },
    });
    await expect(assessMedia(alice, { id, assessment: "FAILED", reason: "OTHER" })).rejects.toMatchObject({
      extensions: { code: "BAD_USER_INPUT", field: "reasonText" },
    });
    await expect(assessMedia(alice, { id, assessment: "VERIFIED", comment: "   " })).rejects.toMatchObject({
      extensions: { code: "BAD_USER_INPUT", field: "comment" },
    });
    await expect(assessMedia(alice, { id, assessment: "VERIFIED", comment: "x".repeat(2_001) })).rejects.toMatchObject({
      extensions: { code: "BAD_USER_INPUT", field: "comment" },
    });
    expect(await readProof(id)).toMatchObject({ status: "SUBMITTED", assessment: null, decision: null, decisions: [] });
    expect(await decisionRows(id)).toBe(0);
    const decided = await assessMedia(alice, { id, assessment: "FAILED", reason: "OTHER", reasonText: "the wallet shown is a web page mock-up" });
    expect(decided.decision).toMatchObject({ reason: "OTHER", reasonText: "the wallet shown is a web page mock-up" });
  });

  it("reopens a decided proof with a reason and decides it again, keeping every earlier entry in its history", async () => {
    const id = await submittedMediaProof();
    await assessMedia(alice, { id, assessment: "FAILED", reason: "EVIDENCE_UNREADABLE" });
    const reopened = await reopen(bob, id, "the customer sent a sharper screenshot by mail; the first one was judged too quickly");
    expect(reopened).toMatchObject({ status: "SUBMITTED", assessment: null, decision: null, comment: "requested by onboarding" });
    expect(reopened.decisions.map((entry) => [entry.action, entry.outcome, (entry.decider as { username: string }).username])).toEqual([
      ["DECIDED", "FAILED", "alice"],
      ["REOPENED", null, "bob"],
    ]);
    expect(reopened.decisions[1]).toMatchObject({
      reasonText: "the customer sent a sharper screenshot by mail; the first one was judged too quickly",
      reason: null,
    });

    const again = await assessMedia(bob, { id, assessment: "VERIFIED", comment: "second look" });
    expect(again.decisions.map((entry) => entry.action)).toEqual(["DECIDED", "REOPENED", "DECIDED"]);
    expect(again.decisions[0]).toEqual(reopened.decisions[0]);
    expect(again.decision).toEqual(again.decisions[2]);

    // Each status change is a proof event, as for any other change: SUBMITTED, FAILED, SUBMITTED, VERIFIED after the creation.
    const events = await sql<{ status: string }>`SELECT proof->>'status' AS status FROM aopd_proof_event WHERE proof->>'id' = ${id} ORDER BY insertion`.execute(
      aopd.services.db,
    );
    expect(events.rows.map((row) => row.status)).toEqual(["PENDING", "SUBMITTED", "FAILED", "SUBMITTED", "VERIFIED"]);
  });

  it("refuses to reopen an undecided proof, a signature proof, or without a reason", async () => {
    const id = await submittedMediaProof();
    await expect(reopen(alice, id, "why not")).rejects.toMatchObject({
      message: "The proof is SUBMITTED; it can be reopened only when VERIFIED or FAILED.",
      extensions: { code: "CONFLICT" },
    });
    await assessMedia(alice, { id, assessment: "VERIFIED" });
    await expect(reopen(alice, id, " ")).rejects.toMatchObject({ extensions: { code: "BAD_USER_INPUT", field: "reason" } });
    const signature = await mutate(requester, `($input: AopdRequestAoppProofInput!) { aopd { requestAoppProof(input: $input) { proof { id } } } }`, {
      input: { customerId: "CUST-DECISIONS", asset: bitcoin },
    });
    await expect(reopen(alice, (signature.proof as { id: string }).id, "mistake")).rejects.toMatchObject({
      extensions: { code: "BAD_USER_INPUT", field: "id" },
    });
    expect((await readProof(id)).decisions).toHaveLength(1);
  });

  it("keeps the history append-only: the database refuses to change or delete a decision", async () => {
    const id = await submittedMediaProof();
    await assessMedia(alice, { id, assessment: "VERIFIED" });
    await expect(sql`UPDATE aopd_proof_decision SET decider_subject = 'someone-else' WHERE proof_id = ${id}`.execute(aopd.services.db)).rejects.toThrow(
      /aopd_proof_decision is append-only: UPDATE refused/,
    );
    await expect(sql`DELETE FROM aopd_proof_decision WHERE proof_id = ${id}`.execute(aopd.services.db)).rejects.toThrow(/append-only: DELETE refused/);
    await expect(sql`DELETE FROM aopd_proof WHERE id = ${id}`.execute(aopd.services.db)).rejects.toThrow(/within its retention/);
    // Past its retention, the decision's foreign key still keeps the proof.
    await sql`UPDATE aopd_proof SET updated_at = now() - interval '6 years' WHERE id = ${id}`.execute(aopd.services.db);
    await expect(sql`DELETE FROM aopd_proof WHERE id = ${id}`.execute(aopd.services.db)).rejects.toThrow(/foreign key/);
    expect((await readProof(id)).decisions[0]).toMatchObject({ decider: { subject: alice.subject } });
  });

  it("filters and counts proofs by decider and decision time", async () => {
    const byCarol: Identity = { subject: "carol-subject", client: "compliance-console", username: "carol", roles: ["proofs:read", "proofs:assess"] };
    const first = await submittedMediaProof();
    const second = await submittedSatoshiProof();
    const before = new Date().toISOString();
    await assessMedia(byCarol, { id: first, assessment: "VERIFIED" });
    await mutate(byCarol, `($id: ID!) { aopd { assessSatoshiProof(id: $id, assessment: VERIFIED) { id } } }`, { id: second });
    const byUsername = { is: { any: { decision: { deciderUsername: { eq: "carol" } } } } };
    const found = (
      await run(alice, `query($filter: AopdProofFilterInput) { aopd { proofs(filter: $filter) { id } proofsCount(filter: $filter) } }`, { filter: byUsername })
    ).aopd as {
      proofs: { id: string }[];
      proofsCount: number;
    };
    expect(found).toEqual({ proofs: [{ id: first }, { id: second }], proofsCount: 2 });
    const bySubjectAndTime = { is: { any: { decision: { deciderSubject: { eq: "carol-subject" }, decidedAt: { gte: before } } } } };
    expect((await run(alice, `query($filter: AopdProofFilterInput) { aopd { proofsCount(filter: $filter) } }`, { filter: bySubjectAndTime })).aopd).toEqual({
      proofsCount: 2,
    });
    const later = { is: { any: { decision: { decidedAt: { gt: new Date(Date.now() + 3_600_000).toISOString() } } } } };
    expect((await run(alice, `query($filter: AopdProofFilterInput) { aopd { proofsCount(filter: $filter) } }`, { filter: later })).aopd).toEqual({
      proofsCount: 0,
    });
    await expect(run(alice, `{ aopd { proofsCount(filter: { is: { any: { decision: { deciderUsername: { eq: 3 } } } } }) } }`)).rejects.toThrow();
  });

  it("exports the decision in force: time, decider, reason and comment columns", async () => {
    const id = await submittedMediaProof();
    await assessMedia(alice, { id, assessment: "FAILED", reason: "THIRD_PARTY_WALLET", reasonText: "exchange deposit page", comment: "escalated" });
    const data = await run(alice, `query($id: String!) { aopd { proofsAsXlsx(filter: { is: { any: { id: { eq: $id } } } }) } }`, { id });
    const [sheet] = readWorkbook(Buffer.from((data.aopd as { proofsAsXlsx: string }).proofsAsXlsx, "base64"));
    const [header, row] = sheet!.rows.map((cells) => cells.map((cell) => cell?.v ?? null));
    const cell = (name: string) => row![header!.indexOf(name)];
    const decided = header!.indexOf("Decided (UTC)");
    expect(header!.slice(decided, decided + 7)).toEqual([
      "Decided (UTC)",
      "Decided by",
      "Decider subject",
      "Decider client",
      "Decision reason",
      "Decision reason text",
      "Decision comment",
    ]);
    expect([
      cell("Assessment"),
      cell("Decided by"),
      cell("Decider subject"),
      cell("Decider client"),
      cell("Decision reason"),
      cell("Decision reason text"),
      cell("Decision comment"),
      cell("Comment"),
    ]).toEqual(["FAILED", "alice", alice.subject, "compliance-console", "THIRD_PARTY_WALLET", "exchange deposit page", "escalated", "requested by onboarding"]);
    expect(typeof cell("Decided (UTC)")).toBe("number");
  });

  it("refuses deciding to a caller with proofs:write but not proofs:assess, and requesting to one with only proofs:assess", async () => {
    const id = await submittedMediaProof();
    const { body } = await aopd.queryAs(requester, `mutation($id: ID!) { aopd { assessMediaProof(id: $id, assessment: VERIFIED) { id } } }`, { id });
    expect(body.errors?.[0]).toMatchObject({ message: 'AopdMutation.assessMediaProof requires the role "proofs:assess".', extensions: { code: "FORBIDDEN" } });
    const reopening = await aopd.queryAs(requester, `mutation($id: ID!) { aopd { reopenProof(id: $id, reason: "r") { id } } }`, { id });
    expect(reopening.body.errors?.[0]).toMatchObject({ extensions: { code: "FORBIDDEN" } });
    const request = await aopd.queryAs(
      bob,
      `mutation { aopd { requestMediaProof(input: { customerId: "C", asset: ${bitcoin}, expectedAddress: "${address}" }) { id } } }`,
    );
    expect(request.body.errors?.[0]).toMatchObject({
      message: 'AopdMutation.requestMediaProof requires the role "proofs:write".',
      extensions: { code: "FORBIDDEN" },
    });
    expect(await decisionRows(id)).toBe(0);
  });
});

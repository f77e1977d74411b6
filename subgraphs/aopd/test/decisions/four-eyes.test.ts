import type { Identity } from "@compliance-graph/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aopdConfigFromEnv } from "../../src/aopd-config-from-env.js";
import { startAopdWithOfficers, type AopdWithOfficers } from "../support/aopd-with-officers.js";
import { pngImage } from "@compliance-graph/test-kit";
import { portalApi } from "../support/portal-client.js";
import { databaseDrivers } from "../support/test-database.js";

const bitcoin = "DTI4H95J0R2X";
const address = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const deposit = "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h";

const requester: Identity = { subject: "sa-requests", client: "intake-service", roles: ["proofs:read", "proofs:write"] };
const alice: Identity = { subject: "alice-subject", client: "compliance-console", username: "alice", roles: ["proofs:read", "proofs:assess"] };
const bob: Identity = { subject: "bob-subject", client: "compliance-console", username: "bob", roles: ["proofs:read", "proofs:assess"] };
/** Alice again, through another client: still the same person (subject). */
const aliceElsewhere: Identity = { ...alice, client: "officer-cli" };
/** A client-credentials token as Keycloak (and the development realm) issues it: the client's service account, no person. */
const apiServiceAccount: Identity = {
  subject: "service-account-subject",
  client: "dev-api-client",
  username: "service-account-dev-api-client",
  roles: ["proofs:read", "proofs:assess"],
};
/** A client-credentials token of a provider that gives such tokens no username, from a client the deployment allows (AOPD_FOUR_EYES_SERVICE_CLIENTS). */
const allowedReviewer: Identity = { subject: "reviewer-bot-subject", client: "automated-reviewer", roles: ["proofs:read", "proofs:assess"] };

const entry = "id action outcome reason reasonText comment decider { username }";
const fields = `id status assessment decision { ${entry} } proposal { ${entry} } decisions { ${entry} }`;
type Row = {
  id: string;
  status: string;
  decision: Record<string, unknown> | null;
  proposal: Record<string, unknown> | null;
  decisions: Record<string, unknown>[];
};

describe.each(databaseDrivers)("four eyes on %s", (driver) => {
  let aopd: AopdWithOfficers;
  const mutate = async (identity: Identity, mutation: string, variables: Record<string, unknown>) => {
    const { body } = await aopd.queryAs(identity, `mutation${mutation}`, variables);
    if (body.errors) throw Object.assign(new Error(body.errors[0]!.message), { extensions: body.errors[0]!.extensions });
    return Object.values(body.data!.aopd as Record<string, Row>)[0]!;
  };
  const submittedMediaProof = async () => {
    const requested = await mutate(requester, `($input: AopdRequestMediaProofInput!) { aopd { requestMediaProof(input: $input) { id portalUrl } } }`, {
      input: { customerId: "CUST-4EYES", asset: bitcoin, expectedAddress: address },
    });
    const token = (requested as unknown as { portalUrl: string }).portalUrl.split("/").pop()!;
    expect(
      (await portalApi(aopd, `${token}/media`, { method: "POST", headers: { "content-type": "image/png" }, body: new Uint8Array(pngImage(16, 16)) })).status,
    ).toBe(200);
    return requested.id;
  };
  const propose = (identity: Identity, id: string, assessment = "VERIFIED", extra = "") =>
    mutate(identity, `($id: ID!) { aopd { assessMediaProof(id: $id, assessment: ${assessment}${extra}) { ${fields} } } }`, { id });
  const confirm = (identity: Identity, id: string, comment?: string) =>
    mutate(
      identity,
      `($id: ID!, $comment: String) { aopd { confirmProofDecision(id: $id, comment: $comment) { ... on AopdMediaProof { ${fields} } ... on AopdSatoshiProof { ${fields} } } } }`,
      { id, comment },
    );
  const reject = (identity: Identity, id: string, reason: string) =>
    mutate(identity, `($id: ID!, $reason: String!) { aopd { rejectProofDecision(id: $id, reason: $reason) { ... on AopdMediaProof { ${fields} } } } }`, {
      id,
      reason,
    });
  const reopen = (identity: Identity, id: string, reason: string) =>
    mutate(identity, `($id: ID!, $reason: String!) { aopd { reopenProof(id: $id, reason: $reason) { ... on AopdMediaProof { ${fields} } } } }`, { id, reason });
  const decidedMediaProof = async () => {
    const id = await submittedMediaProof();
    await propose(alice, id);
    await confirm(bob, id);
    return id;
  };

  beforeAll(async () => {
    // Media proofs need four eyes; Satoshi proofs do not.
    aopd = await startAopdWithOfficers(driver, { fourEyesKinds: ["media"], fourEyesServiceClients: ["automated-reviewer"] });
    // Starting PGlite (WebAssembly) and migrating takes long on a busy machine.
  }, 180_000);
  afterAll(async () => {
    await aopd?.close();
  });

  it("makes the first decision a proposal: the proof stays SUBMITTED until a second officer confirms it", async () => {
    const id = await submittedMediaProof();
    const proposed = await propose(alice, id, "FAILED", ', reason: ADDRESS_NOT_SHOWN, comment: "cut off"');
    expect(proposed).toMatchObject({
      status: "SUBMITTED",
      assessment: null,
      decision: null,
      proposal: { action: "PROPOSED", outcome: "FAILED", reason: "ADDRESS_NOT_SHOWN", decider: { username: "alice" } },
    });

    const confirmed = await confirm(bob, id, "agreed");
    const decision = { action: "CONFIRMED", outcome: "FAILED", reason: "ADDRESS_NOT_SHOWN", comment: "agreed", decider: { username: "bob" } };
    expect(confirmed).toMatchObject({ status: "FAILED", assessment: "FAILED", proposal: null, decision });
    expect(confirmed.decisions.map((item) => [item.action, (item.decider as { username: string }).username])).toEqual([
      ["PROPOSED", "alice"],
      ["CONFIRMED", "bob"],
    ]);
    expect(confirmed.decision!.id).toBe(confirmed.decisions[1]!.id);
  });

  it("refuses the proposer's own confirmation or rejection with a clear error, also through another client, and changes nothing", async () => {
    const id = await submittedMediaProof();
    await propose(alice, id);
    for (const attempt of [() => confirm(alice, id), () => confirm(aliceElsewhere, id), () => reject(alice, id, "changed my mind")]) {
      await expect(attempt()).rejects.toMatchObject({
        message: expect.stringMatching(/^You proposed this decision \(alice\); four eyes: a second, different officer must (confirm|reject) it\.$/),
        extensions: { code: "CONFLICT", proposedBy: "alice-subject" },
      });
    }
    const { body } = await aopd.queryAs(
      bob,
      `query($id: String!) { aopd { proofs(limit: 1, filter: { is: { any: { id: { eq: $id } } } }) { ... on AopdMediaProof { ${fields} } } } }`,
      { id },
    );
    const proof = (body.data!.aopd as { proofs: Row[] }).proofs[0]!;
    expect(proof).toMatchObject({ status: "SUBMITTED", decision: null, proposal: { decider: { username: "alice" } } });
    expect(proof.decisions).toHaveLength(1);
  });

  it("returns a rejected proposal's proof to review, where another proposal can be made and confirmed", async () => {
    const id = await submittedMediaProof();
    await propose(alice, id);
    await expect(propose(bob, id)).rejects.toMatchObject({
      message: "The proof has a proposed decision awaiting a second officer; confirm or reject that one first.",
      extensions: { code: "CONFLICT" },
    });
    await expect(reject(bob, id, "  ")).rejects.toMatchObject({ extensions: { code: "BAD_USER_INPUT", field: "reason" } });
    const rejected = await reject(bob, id, "the address shown differs in its last characters");
    expect(rejected).toMatchObject({ status: "SUBMITTED", decision: null, proposal: null });
    expect(rejected.decisions.at(-1)).toMatchObject({
      action: "REJECTED",
      outcome: null,
      reasonText: "the address shown differs in its last characters",
      decider: { username: "bob" },
    });

    await propose(bob, id, "FAILED", ', reason: THIRD_PARTY_WALLET, reasonText: "other wallet"');
    const confirmed = await confirm(alice, id);
    expect(confirmed).toMatchObject({
      status: "FAILED",
      decision: { action: "CONFIRMED", reason: "THIRD_PARTY_WALLET", reasonText: "other wallet", decider: { username: "alice" } },
    });
    expect(confirmed.decisions.map((item) => item.action)).toEqual(["PROPOSED", "REJECTED", "PROPOSED", "CONFIRMED"]);
    await expect(confirm(bob, id)).rejects.toMatchObject({
      message: "The proof is FAILED and has no proposed decision to confirm.",
      extensions: { code: "CONFLICT" },
    });
  });

  it("makes a reopening a proposal too: the decision two officers made stays in force until a second officer confirms setting it aside", async () => {
    const id = await decidedMediaProof();
    const proposed = await reopen(alice, id, "the customer sent a sharper screenshot");
    expect(proposed).toMatchObject({
      status: "VERIFIED",
      decision: { action: "CONFIRMED", decider: { username: "bob" } },
      proposal: { action: "REOPEN_PROPOSED", outcome: null, reasonText: "the customer sent a sharper screenshot", decider: { username: "alice" } },
    });
    await expect(reopen(bob, id, "again")).rejects.toMatchObject({
      message: "The proof has a proposed reopening awaiting a second officer; confirm or reject that one first.",
      extensions: { code: "CONFLICT" },
    });
    for (const attempt of [() => confirm(alice, id), () => confirm(aliceElsewhere, id)]) {
      await expect(attempt()).rejects.toMatchObject({
        message: "You proposed this decision (alice); four eyes: a second, different officer must confirm it.",
        extensions: { code: "CONFLICT" },
      });
    }

    const reopened = await confirm(bob, id, "agreed, decide again");
    expect(reopened).toMatchObject({ status: "SUBMITTED", decision: null, proposal: null });
    expect(reopened.decisions.map((item) => [item.action, (item.decider as { username: string }).username, item.reasonText ?? item.comment])).toEqual([
      ["PROPOSED", "alice", null],
      ["CONFIRMED", "bob", null],
      ["REOPEN_PROPOSED", "alice", "the customer sent a sharper screenshot"],
      ["REOPENED", "bob", "the customer sent a sharper screenshot"],
    ]);
    expect(reopened.decisions.at(-1)).toMatchObject({ comment: "agreed, decide again" });
  });

  it("keeps the decision in force when the second officer rejects the proposed reopening", async () => {
    const id = await decidedMediaProof();
    await reopen(bob, id, "looks doubtful");
    const rejected = await reject(alice, id, "the screenshot is clear");
    expect(rejected).toMatchObject({ status: "VERIFIED", proposal: null, decision: { action: "CONFIRMED", decider: { username: "bob" } } });
    expect(rejected.decisions.map((item) => item.action)).toEqual(["PROPOSED", "CONFIRMED", "REOPEN_PROPOSED", "REJECTED"]);
  });

  it("refuses a token without a user (a service client) to propose, confirm, reject or reopen, unless AOPD_FOUR_EYES_SERVICE_CLIENTS names its client", async () => {
    const refusal = (doing: string) => ({
      message: `Four eyes: a token without a user (the client dev-api-client's own) cannot ${doing}; an officer signs in as a person. A deployment may allow a named service client with AOPD_FOUR_EYES_SERVICE_CLIENTS.`,
      extensions: { code: "FORBIDDEN", client: "dev-api-client" },
    });
    const id = await submittedMediaProof();
    await expect(propose(apiServiceAccount, id)).rejects.toMatchObject(refusal("propose a decision"));
    await propose(alice, id);
    // The attack: alice proposes, then confirms with the API client's secret as the "second officer".
    await expect(confirm(apiServiceAccount, id)).rejects.toMatchObject(refusal("confirm a proposal"));
    await expect(reject(apiServiceAccount, id, "no")).rejects.toMatchObject(refusal("reject a proposal"));
    const { body } = await aopd.queryAs(
      bob,
      `query($id: String!) { aopd { proofs(limit: 1, filter: { is: { any: { id: { eq: $id } } } }) { ... on AopdMediaProof { ${fields} } } } }`,
      { id },
    );
    expect((body.data!.aopd as { proofs: Row[] }).proofs[0]).toMatchObject({
      status: "SUBMITTED",
      proposal: { action: "PROPOSED", decider: { username: "alice" } },
    });

    // A client the deployment names acts as an officer would.
    const confirmed = await confirm(allowedReviewer, id);
    expect(confirmed).toMatchObject({ status: "VERIFIED", decision: { action: "CONFIRMED", decider: { username: null } } });
    await expect(reopen(apiServiceAccount, id, "undo")).rejects.toMatchObject(refusal("propose a reopening"));
    expect((await reopen(allowedReviewer, id, "to be looked at again")).proposal).toMatchObject({ action: "REOPEN_PROPOSED" });
  });

  it("leaves kinds not named in AOPD_FOUR_EYES_KINDS to one officer", async () => {
    const requested = await mutate(requester, `($input: AopdRequestSatoshiProofInput!) { aopd { requestSatoshiProof(input: $input) { id } } }`, {
      input: { customerId: "CUST-4EYES", asset: bitcoin, senderAddress: address, depositAddress: deposit },
    });
    await mutate(requester, `($id: ID!) { aopd { finalizeSatoshiProof(id: $id, txId: "${"cd".repeat(32)}") { id } } }`, { id: requested.id });
    const decided = await mutate(alice, `($id: ID!) { aopd { assessSatoshiProof(id: $id, assessment: VERIFIED) { ${fields} } } }`, { id: requested.id });
    expect(decided).toMatchObject({ status: "VERIFIED", proposal: null, decision: { action: "DECIDED", decider: { username: "alice" } } });
  });
});

describe("AOPD_FOUR_EYES_KINDS", () => {
  it("is off by default, takes media, satoshi and signature (its proofs left for review), and refuses anything else naming what is allowed", () => {
    expect(aopdConfigFromEnv({}).fourEyesKinds).toEqual([]);
    expect(aopdConfigFromEnv({ AOPD_FOUR_EYES_KINDS: "media, satoshi,media" }).fourEyesKinds).toEqual(["media", "satoshi"]);
    expect(aopdConfigFromEnv({ AOPD_FOUR_EYES_KINDS: "signature" }).fourEyesKinds).toEqual(["signature"]);
    expect(() => aopdConfigFromEnv({ AOPD_FOUR_EYES_KINDS: "media,xpub" })).toThrow(
      'AOPD_FOUR_EYES_KINDS names "xpub"; allowed: media, satoshi, signature (comma-separated), or empty for none.',
    );
  });
});

describe("AOPD_FOUR_EYES_SERVICE_CLIENTS", () => {
  it("allows no service client by default and takes a comma-separated list of client ids", () => {
    expect(aopdConfigFromEnv({}).fourEyesServiceClients).toEqual([]);
    expect(aopdConfigFromEnv({ AOPD_FOUR_EYES_SERVICE_CLIENTS: " automated-reviewer,,second-line ,automated-reviewer" }).fourEyesServiceClients).toEqual([
      "automated-reviewer",
      "second-line",
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

const bitcoin = "DTI4H95J0R2X";
const sender = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const deposit = "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h";
const txId = "a".repeat(64);
const fields = `id status amount senderAddress depositAddress txId assessment comment dueAt`;

describe.each(databaseDrivers)("Satoshi proofs on %s", (driver) => {
  let aopd: TestAopd;
  const mutate = async (mutation: string, variables: Record<string, unknown>) => (await aopd.query(`mutation${mutation}`, variables)).body;
  const requestProof = async (input: Record<string, unknown> = {}) => {
    const body = await mutate(`($input: AopdRequestSatoshiProofInput!) { aopd { requestSatoshiProof(input: $input) { ${fields} } } }`, {
      input: { customerId: "CUST-9", asset: bitcoin, senderAddress: sender, depositAddress: deposit, ...input },
    });
    return body;
  };
  const finalize = (id: string, tx = txId) =>
    mutate(`($id: ID!, $tx: String!) { aopd { finalizeSatoshiProof(id: $id, txId: $tx) { ${fields} } } }`, { id, tx });
  // FAILED needs a reason code (docs/decisions.md).
  const assess = (id: string, assessment: string, comment?: string) =>
    mutate(
      `($id: ID!, $a: AopdAssessment!, $r: AopdDecisionReason, $c: String) { aopd { assessSatoshiProof(id: $id, assessment: $a, reason: $r, comment: $c) { ${fields} } } }`,
      {
        id,
        a: assessment,
        r: assessment === "FAILED" ? "WRONG_AMOUNT" : null,
        c: comment,
      },
    );
  const proofOf = (body: { data?: Record<string, unknown> | null }, field: string) => (body.data!.aopd as Record<string, Record<string, unknown>>)[field]!;

  beforeAll(async () => {
    aopd = await startTestAopd(driver);
  });
  afterAll(async () => {
    await aopd?.close();
  });

  it("walks PENDING -> SUBMITTED -> VERIFIED with a randomised amount and a 48-hour due time", async () => {
    const requested = proofOf(await requestProof({ comment: "first deposit" }), "requestSatoshiProof");
    expect(requested).toMatchObject({ status: "PENDING", senderAddress: sender, depositAddress: deposit, txId: null, assessment: null });
    const amount = BigInt(requested.amount as string);
    expect(amount > 10_000n && amount < 20_000n).toBe(true);
    const dueIn = new Date(requested.dueAt as string).getTime() - Date.now();
    expect(dueIn).toBeGreaterThan(47 * 3_600_000);
    expect(dueIn).toBeLessThanOrEqual(48 * 3_600_000);
    const submitted = proofOf(await finalize(requested.id as string), "finalizeSatoshiProof");
    expect(submitted).toMatchObject({ status: "SUBMITTED", txId, dueAt: null });
    const verified = proofOf(await assess(requested.id as string, "VERIFIED", "amount matched"), "assessSatoshiProof");
    // The assessment's comment is the decider's, on the decision; the requester's comment stays.
    expect(verified).toMatchObject({ status: "VERIFIED", assessment: "VERIFIED", comment: "first deposit", amount: requested.amount });
  });

  it("takes token and Solana/TRON proofs: amounts in the token's own lowest unit, each network's transaction ids, token payment links", async () => {
    const tronSender = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
    const tronDeposit = "TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8";
    const usdtOnTron = proofOf(await requestProof({ asset: "DTIC9N6ZVN7S", senderAddress: tronSender, depositAddress: tronDeposit }), "requestSatoshiProof");
    // USDT has 6 decimals: 0.0001 USDT is 100 units, plus the random part.
    const amount = BigInt(usdtOnTron.amount as string);
    expect(amount > 100n && amount < 10_100n).toBe(true);
    expect((await finalize(usdtOnTron.id as string, `0x${"b".repeat(64)}`)).errors?.[0]?.message).toBe(
      "txId: is not a transaction id of USD Tether: expected 64 hexadecimal characters.",
    );
    expect(proofOf(await finalize(usdtOnTron.id as string, "b".repeat(64)), "finalizeSatoshiProof")).toMatchObject({ status: "SUBMITTED" });

    const solanaSignature = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW";
    const sol = proofOf(
      await requestProof({
        asset: "DTI20J63Z4N3",
        senderAddress: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
        depositAddress: "mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So",
      }),
      "requestSatoshiProof",
    );
    expect((await finalize(sol.id as string, "c".repeat(64))).errors?.[0]?.message).toBe(
      "txId: is not a transaction id of Solana: expected the base58 transaction signature (64 bytes).",
    );
    expect(proofOf(await finalize(sol.id as string, solanaSignature), "finalizeSatoshiProof")).toMatchObject({ status: "SUBMITTED", txId: solanaSignature });
    // Base58 is case-sensitive: the same letters in another case are another transaction.
    expect((await finalize(sol.id as string, solanaSignature.toLowerCase().replace(/l/g, "L"))).errors?.[0]?.extensions?.code).toBe("CONFLICT");
  });

  it("returns the portal URL with the proof's credential in the request's answer only", async () => {
    const body = await mutate(`($input: AopdRequestSatoshiProofInput!) { aopd { requestSatoshiProof(input: $input) { id portalUrl } } }`, {
      input: { customerId: "CUST-9", asset: bitcoin, senderAddress: sender, depositAddress: deposit },
    });
    const { id, portalUrl } = proofOf(body, "requestSatoshiProof") as { id: string; portalUrl: string };
    expect(portalUrl).toMatch(/^http:\/\/localhost:4000\/portal\/[A-Za-z0-9_-]{43}$/);
    const { body: read } = await aopd.query(`query($id: ID!) { aopd { proof(id: $id) { ... on AopdSatoshiProof { portalUrl } } } }`, { id });
    expect(read.data).toEqual({ aopd: { proof: { portalUrl: null } } });
  });

  it("refuses transitions the state machine does not allow, changing nothing", async () => {
    const { id } = proofOf(await requestProof(), "requestSatoshiProof") as { id: string };
    const early = await assess(id, "FAILED");
    expect(early.errors?.[0]).toMatchObject({ extensions: { code: "CONFLICT", status: "PENDING" } });
    expect(early.errors?.[0]?.message).toBe("The proof is PENDING; it can be assessed only when SUBMITTED.");
    await finalize(id);
    // A retry with the same transaction id (its answer was lost) is the same success; another id is a conflict.
    expect(proofOf(await finalize(id), "finalizeSatoshiProof")).toMatchObject({ id, status: "SUBMITTED", txId });
    expect(proofOf(await finalize(id, txId.toUpperCase()), "finalizeSatoshiProof")).toMatchObject({ id, status: "SUBMITTED", txId });
    const twice = await finalize(id, "b".repeat(64));
    expect(twice.errors?.[0]?.extensions).toMatchObject({ code: "CONFLICT", status: "SUBMITTED" });
    await assess(id, "FAILED");
    const final = await assess(id, "VERIFIED");
    expect(final.errors?.[0]?.extensions).toMatchObject({ code: "CONFLICT", status: "FAILED" });
    const { body } = await aopd.query(`query($id: ID!) { aopd { proof(id: $id) { status ... on AopdSatoshiProof { assessment } } } }`, { id });
    expect(body.data).toEqual({ aopd: { proof: { status: "FAILED", assessment: "FAILED" } } });
  });

  it("refuses to finalize a proof past its due time", async () => {
    const { id } = proofOf(await requestProof(), "requestSatoshiProof") as { id: string };
    await aopd.services.db
      .updateTable("aopd_proof")
      .set({ due_at: new Date(Date.now() - 1_000) })
      .where("id", "=", id)
      .execute();
    const late = await finalize(id);
    expect(late.errors?.[0]?.extensions?.code).toBe("CONFLICT");
    expect(late.errors?.[0]?.message).toMatch(/^The proof expired at .*; it can no longer be finalized\.$/);
  });

  it("answers NOT_FOUND for unknown ids and BAD_USER_INPUT for bad input", async () => {
    expect((await finalize("00000000-0000-4000-8000-000000000000")).errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect((await finalize("not-a-uuid")).errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const { id } = proofOf(await requestProof(), "requestSatoshiProof") as { id: string };
    expect((await finalize(id, "xyz")).errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "txId" });
    const cases: [Record<string, unknown>, string][] = [
      [{ customerId: "" }, "input.customerId"],
      [{ asset: "DTIK1NS41N51" }, "input.asset"],
      [{ asset: "DTI20J63Z4N3" }, "input.senderAddress"],
      [{ senderAddress: "1BoatSLRHtKNngkdXEeobR76b53LETtpyX" }, "input.senderAddress"],
      [{ depositAddress: sender }, "input.depositAddress"],
      [{ comment: "c".repeat(2001) }, "input.comment"],
    ];
    for (const [input, field] of cases) {
      expect((await requestProof(input)).errors?.[0]?.extensions, JSON.stringify(input)).toMatchObject({ code: "BAD_USER_INPUT", field });
    }
  });

  it("refuses Satoshi transitions on a signature proof", async () => {
    const { body } = await aopd.query(
      `mutation { aopd { requestAoppProof(input: { customerId: "C", asset: DTI4H95J0R2X, expectedAddress: "${sender}" }) { proof { id } } } }`,
    );
    const id = (body.data!.aopd as { requestAoppProof: { proof: { id: string } } }).requestAoppProof.proof.id;
    expect((await finalize(id)).errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "id" });
  });
});

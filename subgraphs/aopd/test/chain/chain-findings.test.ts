import type { Identity } from "@compliance-graph/identity";
import { anvilAccounts, pollUntil, readWorkbook, startLocalAnvil, type LocalAnvil } from "@compliance-graph/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aopdConfigFromEnv } from "../../src/aopd-config-from-env.js";
import { startAopdWithOfficers, type AopdWithOfficers } from "../support/aopd-with-officers.js";
import { databaseDrivers } from "../support/test-database.js";

const ether = "DTIX9J9K872S";
const [sender, deposit] = anvilAccounts;

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

const findingFields = "status txId blockHeight blockHash confirmations amountReceived amountReceivedUnits transactionSenders failureReason";
type Finding = Record<string, unknown> & { status: string; decisions?: { action: string; decider: { subject: string } }[] };

/** `amount` wei in ether, written out by hand (18 decimals, no trailing zeros), independent of the code under test. */
const inEther = (amount: bigint) => {
  const digits = amount.toString().padStart(19, "0");
  const fraction = digits.slice(-18).replace(/0+$/, "");
  return fraction === "" ? digits.slice(0, -18) : `${digits.slice(0, -18)}.${fraction}`;
};

describe.each(databaseDrivers)("what the chain check found, on the record (anvil, %s)", (driver) => {
  let anvil: LocalAnvil;
  let aopd: AopdWithOfficers;

  const run = async (identity: Identity, query: string, variables: Record<string, unknown> = {}) => {
    const { body } = await aopd.queryAs(identity, query, variables);
    if (body.errors) throw new Error(body.errors[0]!.message);
    return body.data!.aopd as Record<string, unknown>;
  };
  const read = async (id: string): Promise<Finding> =>
    (
      await run(
        alice,
        `query($id: ID!) { aopd { proof(id: $id) { ... on AopdSatoshiProof { ${findingFields} decisions { action decider { subject } } } } } }`,
        { id },
      )
    ).proof as Finding;
  const rpc = async <T>(method: string, params: unknown[]): Promise<T> => {
    const response = await fetch(anvil.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return ((await response.json()) as { result: T }).result;
  };

  /** A Satoshi proof requested and reported through GraphQL, paid on anvil by `pay`. */
  const reportedProof = async (pay: (amount: bigint) => Promise<string>) => {
    const requested = (
      await run(requester, `mutation($input: AopdRequestSatoshiProofInput!) { aopd { requestSatoshiProof(input: $input) { id amount } } }`, {
        input: { customerId: "CUST-CHAIN-FINDINGS", asset: ether, senderAddress: sender, depositAddress: deposit },
      })
    ).requestSatoshiProof as { id: string; amount: string };
    const amount = BigInt(requested.amount);
    const txId = await pay(amount);
    await run(requester, `mutation($id: ID!, $txId: String!) { aopd { finalizeSatoshiProof(id: $id, txId: $txId) { id } } }`, { id: requested.id, txId });
    return { id: requested.id, amount, txId };
  };

  beforeAll(async () => {
    anvil = await startLocalAnvil();
    const fromEnv = aopdConfigFromEnv({ AOPD_CHAIN_ETHEREUM_URL: anvil.url, AOPD_CHAIN_ETHEREUM_CONFIRMATIONS: "3", AOPD_CHAIN_RECHECK_SECONDS: "0" });
    // Passes are run by the test (interval 0), so each check happens when the test says.
    aopd = await startAopdWithOfficers(driver, { chain: { ...fromEnv.chain, intervalSeconds: 0 } });
  }, 180_000);
  afterAll(async () => {
    await Promise.all([aopd?.close(), anvil?.close()]);
  });

  it("records the block (height and hash), the confirmations at the decision, the amount received and the sender, and keeps them through a reopening and a new decision", async () => {
    const { id, amount, txId } = await reportedProof((amount) => anvil.send({ from: sender, to: deposit, value: amount }));
    const receipt = await rpc<{ blockNumber: string; blockHash: string }>("eth_getTransactionReceipt", [txId]);
    await aopd.chainWatcher.pass();
    // In a block but one confirmation short of three: recorded, not decided.
    expect(await read(id)).toMatchObject({ status: "SUBMITTED", blockHash: receipt.blockHash, confirmations: 1, amountReceived: amount.toString() });

    await anvil.mine(2);
    await aopd.chainWatcher.pass();
    const found = {
      txId,
      blockHeight: Number(BigInt(receipt.blockNumber)),
      blockHash: receipt.blockHash,
      confirmations: 3,
      amountReceived: amount.toString(),
      amountReceivedUnits: inEther(amount),
      transactionSenders: [sender],
      failureReason: null,
    };
    const verified = await read(id);
    expect(verified).toMatchObject({ status: "VERIFIED", ...found });
    // The proof event of the verification carries the finding too (subscribers and pollers read it there).
    const events = await pollUntil(
      "the VERIFIED event in the log",
      async () =>
        (
          (
            await run(
              alice,
              `query($id: String!) { aopd { proofEvents(limit: 10, filter: { is: { any: { id: { eq: $id } } } }) { events { proof { ... on AopdSatoshiProof { ${findingFields} } } } } } }`,
              { id },
            )
          ).proofEvents as {
            events: { proof: Finding }[];
          }
        ).events,
      (list) => list.some((event) => event.proof.status === "VERIFIED"),
      { timeoutMs: 60_000 },
    );
    expect(events.find((event) => event.proof.status === "VERIFIED")!.proof).toEqual({ status: "VERIFIED", ...found });

    // More blocks, a reopening and an officer's decision later, the finding is what it was at the watcher's decision.
    await anvil.mine(3);
    await run(alice, `mutation($id: ID!) { aopd { reopenProof(id: $id, reason: "the customer says the deposit address was mistyped") { id } } }`, { id });
    await aopd.chainWatcher.pass();
    expect(await read(id)).toMatchObject({ status: "SUBMITTED", ...found });
    await run(
      alice,
      `mutation($id: ID!) { aopd { assessSatoshiProof(id: $id, assessment: FAILED, reason: OTHER, reasonText: "the deposit address belongs to another customer") { id } } }`,
      { id },
    );
    const redecided = await read(id);
    expect(redecided).toMatchObject({ status: "FAILED", ...found });
    expect(redecided.decisions!.map((entry) => [entry.action, entry.decider.subject])).toEqual([
      ["DECIDED", "system:chain-watcher"],
      ["REOPENED", alice.subject],
      ["DECIDED", alice.subject],
    ]);

    // The export shows the same finding in its chain columns.
    const xlsx = (await run(alice, `query($id: String!) { aopd { proofsAsXlsx(filter: { is: { any: { id: { eq: $id } } } }) } }`, { id }))
      .proofsAsXlsx as string;
    const [sheet] = readWorkbook(Buffer.from(xlsx, "base64"));
    const [header, row] = sheet!.rows.map((cells) => cells.map((cell) => cell?.v ?? null));
    const cell = (name: string) => row![header!.indexOf(name)];
    expect(
      [
        "Transaction ID",
        "Block height",
        "Block hash",
        "Confirmations",
        "Amount received (lowest denomination)",
        "Amount received (units)",
        "Transaction senders",
        "Status",
      ].map(cell),
    ).toEqual([txId, String(found.blockHeight), receipt.blockHash, "3", amount.toString(), inEther(amount), sender, "FAILED"]);
  });

  it("records what a contradicting transaction paid and who paid it", async () => {
    const { id, amount } = await reportedProof((amount) => anvil.send({ from: sender, to: deposit, value: amount + 7n }));
    await aopd.chainWatcher.pass();
    expect(await read(id)).toMatchObject({
      status: "FAILED",
      confirmations: 1,
      amountReceived: (amount + 7n).toString(),
      amountReceivedUnits: inEther(amount + 7n),
      transactionSenders: [sender],
      failureReason: `The transaction pays ${amount + 7n} to the deposit address; the proof asks for exactly ${amount} (lowest denomination).`,
    });
  });

  it("records nothing while the transaction is unknown to the chain", async () => {
    const { id } = await reportedProof(async () => `0x${"cd".repeat(32)}`);
    await aopd.chainWatcher.pass();
    expect(await read(id)).toMatchObject({
      status: "SUBMITTED",
      blockHeight: null,
      blockHash: null,
      confirmations: 0,
      amountReceived: null,
      amountReceivedUnits: null,
      transactionSenders: null,
    });
  });
});

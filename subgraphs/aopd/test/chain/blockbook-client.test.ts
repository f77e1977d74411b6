import { inspect } from "node:util";
import { createLogger } from "@compliance-graph/process-shell";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aopdConfigFromEnv } from "../../src/aopd-config-from-env.js";
import type { AopdConfig } from "../../src/aopd-config.js";
import { ChainConnectionError } from "../../src/chain/chain-connection-error.js";
import type { ChainClient } from "../../src/chain/chain-transaction.js";
import { ChainWatcher } from "../../src/kinds/satoshi/chain-watcher.js";
import { chainFindingColumns } from "../../src/kinds/satoshi/chain-finding.js";
import { judgeSatoshiTransaction } from "../../src/kinds/satoshi/judge-satoshi-transaction.js";
import type { Database } from "../../src/database/open-database.js";
import { configurationOf } from "../../src/graphql/configuration-of.js";
import { requestSatoshiProof } from "../../src/kinds/satoshi/request-satoshi-proof.js";
import { customerActor } from "../../src/audit/audit-actor.js";
import { finalizeSatoshiProof } from "../../src/kinds/satoshi/satoshi-proof-transitions.js";
import { blockbookFixtures, failingTxIds as txIds, startBlockbookStandIn, type BlockbookStandIn } from "../support/blockbook-stand-in.js";
import { openTestDatabase } from "../support/test-database.js";

/** Who requests the proofs of this test, as the audit trail names them. */
const requester = { origin: { actor: { subject: "test-requester", client: "test", username: null, system: false }, requestId: null } };

const fixtures = blockbookFixtures();
/** Recorded mainnet answers (fixtures/blockbook/README.md): a payment in block 860,730 seen with 1 confirmation, and one in the mempool. */
const mined = {
  txid: "8c1e3dec662d1f2a5e322ccef5eca263f98eb16723c6f990be0c88c1db113fb1",
  sender: "bc1qmgwnfjlda4ns3g6g3yz74w6scnn9yu2ts82yyc",
  payee: "1Nb1ykSD7J5k4RFjJQGsrD9gxBE6jzfNa9",
  amount: 175_000n,
  change: "bc1qjmc49gy3jjrkyjl57yl5duxjp7ssmxkvh5t2q5",
};
const unconfirmed = {
  txid: "73b1ad97194e426031e5c692869de2d83dc2ff6033fc6f0ab5514345f92eaf0d",
  sender: "bc1q9lh77es6m8ztr7muwcec00ewn8fxakpl9jwv8y",
  payee: "bc1q4t7h8phena94prkqtm500mwzupcjvcs2akcdy9",
};
const secret = "sk-live-7f1e9c0a4b";

describe("Bitcoin chain checks through a Blockbook server", () => {
  let blockbook: BlockbookStandIn;
  let config: AopdConfig;
  let client: ChainClient;

  beforeAll(async () => {
    blockbook = await startBlockbookStandIn(secret, Object.values(fixtures));
    // One confirmation counts here: the recorded payment was seen with one.
    config = aopdConfigFromEnv({ AOPD_CHAIN_BITCOIN_URL: blockbook.url, AOPD_CHAIN_BITCOIN_CONFIRMATIONS: "1", AOPD_CHAIN_RECHECK_SECONDS: "0" });
    client = config.chain.connections[0]!.client;
  });
  afterAll(() => blockbook?.close());

  it("reads a recorded mainnet payment: height, block hash, confirmations, each output paid to its address, every input address as payer", async () => {
    expect(await client.transaction(mined.txid, null)).toEqual({
      blockHeight: 860730,
      blockHash: "00000000000000000000effeb0c4460480e6a347deab95332c63007a68646ee5",
      confirmations: 1,
      reverted: false,
      payments: [
        { to: mined.payee, amount: mined.amount, from: [mined.sender] },
        { to: mined.change, amount: 9_888_100n, from: [mined.sender] },
      ],
    });
  });

  it("judges the recorded payment: its real amount to its real payee from its real sender is VERIFIED once deep enough, anything else is not", async () => {
    const tx = await client.transaction(mined.txid, null);
    const request = {
      family: "bitcoin" as const,
      senderAddress: mined.sender.toUpperCase(),
      depositAddress: mined.payee,
      amount: mined.amount,
      requiredConfirmations: 1,
    };
    expect(judgeSatoshiTransaction(request, tx)).toEqual({ outcome: "verified", blockHeight: 860730, confirmations: 1 });
    // Recorded with one confirmation: the default of three is not reached yet.
    expect(judgeSatoshiTransaction({ ...request, requiredConfirmations: 3 }, tx)).toEqual({ outcome: "waiting", blockHeight: 860730, confirmations: 1 });
    expect(judgeSatoshiTransaction({ ...request, amount: mined.amount + 1n }, tx)).toMatchObject({
      outcome: "failed",
      reason: "The transaction pays 175000 to the deposit address; the proof asks for exactly 175001 (lowest denomination).",
    });
    expect(judgeSatoshiTransaction({ ...request, senderAddress: unconfirmed.sender }, tx)).toMatchObject({
      outcome: "failed",
      reason: "The transaction does not come from the sender address.",
    });
    expect(judgeSatoshiTransaction({ ...request, depositAddress: unconfirmed.payee }, tx)).toMatchObject({
      outcome: "failed",
      reason: "The transaction pays nothing of the asset to the deposit address.",
    });
    // What the record keeps of it: the amount to the deposit address, in satoshi and in bitcoin, and who paid it.
    expect(chainFindingColumns(request, tx, 8)).toEqual({
      block_height: 860730,
      block_hash: "00000000000000000000effeb0c4460480e6a347deab95332c63007a68646ee5",
      confirmations: 1,
      amount_received: "175000",
      amount_received_units: "0.00175",
      transaction_senders: [mined.sender],
    });
    // The change output is the sender paying itself: as a deposit it is paid by the sender, with its own amount.
    expect(judgeSatoshiTransaction({ ...request, depositAddress: mined.change, amount: 9_888_100n }, tx)).toMatchObject({ outcome: "verified" });
  });

  it("judges nothing while a recorded payment waits in the mempool (blockHeight -1, no confirmations)", async () => {
    const tx = await client.transaction(unconfirmed.txid, null);
    expect(tx).toEqual({
      blockHeight: null,
      blockHash: null,
      confirmations: 0,
      reverted: false,
      payments: [expect.objectContaining({ to: unconfirmed.payee, amount: 293_135n, from: [unconfirmed.sender] }), expect.anything()],
    });
    expect(
      judgeSatoshiTransaction(
        { family: "bitcoin", senderAddress: unconfirmed.sender, depositAddress: unconfirmed.payee, amount: 293_135n, requiredConfirmations: 1 },
        tx,
      ),
    ).toEqual({
      outcome: "waiting",
      blockHeight: null,
      confirmations: 0,
    });
  });

  it("reads the constructed payment with an OP_RETURN output and two input addresses", async () => {
    const constructed = fixtures["constructed-confirmed-payment"]!;
    const tx = await client.transaction(constructed.txid, null);
    expect(tx?.payments).toHaveLength(2);
    expect(tx?.payments[0]?.from).toEqual(["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"]);
  });

  it("takes an unknown transaction (400 from Blockbook, 404 from a proxy) as not on chain yet", async () => {
    expect(await client.transaction(txIds.unknown400, null)).toBeNull();
    expect(await client.transaction(txIds.unknown404, null)).toBeNull();
  });

  it("turns rate limits, server errors, garbage and a dead server into ChainConnectionErrors that never quote the URL", async () => {
    const failureOf = async (c: ChainClient, txId: string) =>
      (await c.transaction(txId, null).then(
        () => undefined,
        (error: unknown) => error,
      )) as ChainConnectionError;
    const rateLimited = await failureOf(client, txIds.rateLimited);
    expect(rateLimited).toBeInstanceOf(ChainConnectionError);
    expect(rateLimited).toMatchObject({ code: "rate_limited", retryAfterMs: 7_000, network: "bitcoin" });
    expect(await failureOf(client, txIds.broken)).toMatchObject({ code: "server_error" });
    expect(await failureOf(client, txIds.notJson)).toMatchObject({ code: "bad_response" });
    const closed = aopdConfigFromEnv({ AOPD_CHAIN_BITCOIN_URL: `http://127.0.0.1:1/${secret}` }).chain.connections[0]!.client;
    const unreachable = await failureOf(closed, mined.txid);
    expect(unreachable).toMatchObject({ code: "unreachable" });
    for (const error of [rateLimited, unreachable]) expect(`${error.message} ${error.stack} ${inspect(error)}`).not.toContain(secret);
    // Neither the configuration as printed or serialized, nor the API's configuration, carries the key.
    expect(`${inspect(config.chain, { depth: 10 })} ${JSON.stringify(config.chain)} ${JSON.stringify(configurationOf(config))}`).not.toContain(secret);
    expect(configurationOf(config).supportedAssets.find((asset) => asset.asset === "DTI4H95J0R2X")).toMatchObject({
      checkedOnChain: true,
      requiredConfirmations: 1,
    });
    expect(configurationOf(config).supportedAssets.find((asset) => asset.asset === "DTIX9J9K872S")).toMatchObject({
      checkedOnChain: false,
      requiredConfirmations: null,
    });
  });

  describe("the watcher on PostgreSQL", () => {
    let database: Database;
    let watcher: ChainWatcher;
    beforeAll(async () => {
      database = await openTestDatabase("postgres", "blockbook");
      watcher = new ChainWatcher(database.db, config.assets, config.chain, createLogger("chain-test"));
    });
    afterAll(async () => {
      await database?.close();
    });
    const submitted = async (txId: string, proof: { sender: string; deposit: string; amount?: bigint }) => {
      const { row } = await requestSatoshiProof(
        database.db,
        config,
        { customerId: "CUST-2", asset: "DTI4H95J0R2X", senderAddress: proof.sender, depositAddress: proof.deposit },
        requester,
      );
      if (proof.amount !== undefined)
        await database.db
          .updateTable("aopd_proof")
          .set({ amount: String(proof.amount) })
          .where("id", "=", row.id)
          .execute();
      await finalizeSatoshiProof(database.db, config, row.id, txId, { actor: customerActor("portal"), requestId: null });
      return row.id;
    };
    const status = async (id: string) =>
      await database.db
        .selectFrom("aopd_proof")
        .select(["status", "block_height", "confirmations", "failure_reason"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();

    it("VERIFIES a proof the recorded transaction fulfils, FAILS one it pays a different amount, and keeps a mempool one SUBMITTED", async () => {
      const fulfilled = await submitted(mined.txid, { sender: mined.sender, deposit: mined.payee, amount: mined.amount });
      const otherAmount = await submitted(mined.txid, { sender: mined.sender, deposit: mined.payee, amount: 175_123n });
      const waiting = await submitted(unconfirmed.txid, { sender: unconfirmed.sender, deposit: unconfirmed.payee, amount: 293_135n });
      await watcher.pass();
      expect(await status(fulfilled)).toEqual({ status: "VERIFIED", block_height: "860730", confirmations: 1, failure_reason: null });
      expect(await status(otherAmount)).toMatchObject({ status: "FAILED", block_height: "860730", failure_reason: expect.stringContaining("pays 175000") });
      expect(await status(waiting)).toEqual({ status: "SUBMITTED", block_height: null, confirmations: 0, failure_reason: null });
    });

    it("backs off on a rate limit for as long as Retry-After says, reports degraded, and asks nothing meanwhile", async () => {
      const id = await submitted(txIds.rateLimited, { sender: mined.sender, deposit: mined.payee });
      const before = Date.now();
      await watcher.pass();
      const [stats] = watcher.stats();
      expect(stats).toMatchObject({ network: "bitcoin", state: "backing_off", consecutiveFailures: 1, lastFailure: "rate_limited" });
      expect(stats!.retryAt!.getTime()).toBeGreaterThanOrEqual(before + 7_000);
      expect(watcher.degraded()).toEqual(["bitcoin chain connection"]);
      const requests = blockbook.requests();
      await watcher.pass();
      expect(blockbook.requests()).toBe(requests);
      expect((await status(id)).status).toBe("SUBMITTED");
    });
  });
});

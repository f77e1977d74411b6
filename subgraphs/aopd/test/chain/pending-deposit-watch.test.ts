import { AssetRegistry } from "@compliance-graph/dti-assets";
import { createLogger } from "@compliance-graph/process-shell";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aopdConfigFromEnv } from "../../src/aopd-config-from-env.js";
import type { AopdConfig } from "../../src/aopd-config.js";
import { ChainWatcher } from "../../src/kinds/satoshi/chain-watcher.js";
import type { Database } from "../../src/database/open-database.js";
import { requestSatoshiProof } from "../../src/kinds/satoshi/request-satoshi-proof.js";
import { anvilAccounts, type LocalAnvil, startLocalAnvil } from "@compliance-graph/test-kit";
import { blockbookFixtures, startBlockbookStandIn, type BlockbookStandIn } from "../support/blockbook-stand-in.js";
import { databaseDrivers, openTestDatabase } from "../support/test-database.js";

/** Who requests the proofs of this test, as the audit trail names them. */
const requester = { origin: { actor: { subject: "test-requester", client: "test", username: null, system: false }, requestId: null } };

const ether = "DTIX9J9K872S";
const usdt = "DTI2QWSBDMNC";
const bitcoin = "DTI4H95J0R2X";

/** A PENDING Satoshi proof; `amount` and `createdAt` replace the random amount and the creation time when given. */
async function pendingProof(
  database: Database,
  config: AopdConfig,
  input: { asset: string; sender: string; deposit: string; amount?: bigint; createdAt?: Date },
) {
  const { row } = await requestSatoshiProof(
    database.db,
    config,
    { customerId: "CUST-WATCH", asset: input.asset, senderAddress: input.sender, depositAddress: input.deposit },
    requester,
  );
  if (input.amount !== undefined)
    await database.db
      .updateTable("aopd_proof")
      .set({ amount: String(input.amount) })
      .where("id", "=", row.id)
      .execute();
  if (input.createdAt !== undefined) await database.db.updateTable("aopd_proof").set({ created_at: input.createdAt }).where("id", "=", row.id).execute();
  return { id: row.id, amount: input.amount ?? BigInt(row.amount!) };
}

const proofOf = (database: Database, id: string) => database.db.selectFrom("aopd_proof").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const statusesOf = async (database: Database, id: string) =>
  (
    await sql<{ status: string }>`SELECT proof->>'status' AS status FROM aopd_proof_event WHERE proof->>'id' = ${id} ORDER BY insertion`.execute(database.db)
  ).rows.map((row) => row.status);

describe.each(databaseDrivers)("PENDING proofs matched on a real EVM node (anvil) by their deposit address, on %s", (driver) => {
  const [sender, deposit, stranger] = anvilAccounts;
  let anvil: LocalAnvil;
  let database: Database;
  let config: AopdConfig;
  let watcher: ChainWatcher;
  let token: string;

  beforeAll(async () => {
    [anvil, database] = await Promise.all([startLocalAnvil(), openTestDatabase(driver, "chain16pending")]);
    token = await anvil.deployToken(sender);
    const fromEnv = aopdConfigFromEnv({
      AOPD_CHAIN_ETHEREUM_URL: anvil.url,
      AOPD_CHAIN_ETHEREUM_CONFIRMATIONS: "3",
      AOPD_CHAIN_RECHECK_SECONDS: "0",
      AOPD_CHAIN_WATCH_PENDING: "true",
      // Small, so that the scan goes on over several passes.
      AOPD_CHAIN_PENDING_BLOCKS_PER_PASS: "4",
    });
    const assets = new AssetRegistry(fromEnv.assets.assets.map((asset) => (asset.code === usdt ? { ...asset, contract: token } : asset)));
    config = { ...fromEnv, assets };
    watcher = new ChainWatcher(database.db, assets, config.chain, createLogger("chain-test"));
  }, 180_000);
  afterAll(async () => {
    await Promise.all([anvil?.close(), database?.close()]);
  });

  /** Passes until the scan has covered every block deep enough (at most 4 blocks a pass here). */
  const passUntilScanned = async (id: string) => {
    for (let pass = 0; pass < 20; pass += 1) {
      await watcher.pass();
      const proof = await proofOf(database, id);
      const head = Number(BigInt(await anvil.rpc<string>("eth_blockNumber")));
      if (proof.status !== "PENDING" || (proof.chain_scan_cursor !== null && Number(proof.chain_scan_cursor) > head - 2)) return proof;
    }
    throw new Error("the scan never caught up");
  };

  it("finds a native payment of the exact amount from the sender once it is deep enough, records its txid and VERIFIES the proof", async () => {
    const { id, amount } = await pendingProof(database, config, { asset: ether, sender, deposit });
    await anvil.send({ from: sender, to: deposit, value: amount + 1n });
    await anvil.send({ from: stranger, to: deposit, value: amount });
    const payment = await anvil.send({ from: sender, to: deposit, value: amount });
    const shallow = await passUntilScanned(id);
    // Its block has one confirmation of the three: not looked at yet.
    expect(shallow).toMatchObject({ status: "PENDING", tx_id: null });

    await anvil.mine(2);
    const matched = await passUntilScanned(id);
    expect(matched).toMatchObject({ status: "VERIFIED", assessment: "VERIFIED", tx_id: payment, confirmations: 3, due_at: null, failure_reason: null });
    expect(await statusesOf(database, id)).toEqual(["PENDING", "SUBMITTED", "VERIFIED"]);
    // On the audit trail, both steps are the chain watcher's: the match, then the check's result.
    const trail = await database.db
      .selectFrom("aopd_audit_entry")
      .select(["action", "actor_subject", "details"])
      .where("proof_id", "=", id)
      .orderBy("seq")
      .orderBy("insertion")
      .execute();
    expect(trail.map((entry) => [entry.action, entry.actor_subject])).toEqual([
      ["REQUESTED", "test-requester"],
      ["MATCHED_ON_CHAIN", "system:chain-watcher"],
      ["CHAIN_CHECKED", "system:chain-watcher"],
    ]);
    expect(JSON.parse(trail[1]!.details)).toEqual({ txId: payment });
  });

  it("finds an ERC-20 payment by the token's Transfer logs to the deposit address, ignoring a stranger's of the same amount", async () => {
    const { id, amount } = await pendingProof(database, config, { asset: usdt, sender, deposit });
    await anvil.transferToken(token, sender, stranger, amount * 2n);
    await anvil.transferToken(token, stranger, deposit, amount);
    const payment = await anvil.transferToken(token, sender, deposit, amount);
    await anvil.mine(2);
    expect(await passUntilScanned(id)).toMatchObject({ status: "VERIFIED", tx_id: payment, confirmations: 3 });
    expect(watcher.stats()[0]).toMatchObject({ network: "ethereum", state: "ok" });
    expect(watcher.stats()[0]!.matched).toBeGreaterThanOrEqual(2);
  });

  it("leaves a proof PENDING when nothing pays it exactly, and does not watch one that is due", async () => {
    const unpaid = await pendingProof(database, config, { asset: ether, sender, deposit });
    await anvil.send({ from: sender, to: deposit, value: unpaid.amount - 1n });
    const due = await pendingProof(database, config, { asset: ether, sender, deposit });
    await database.db
      .updateTable("aopd_proof")
      .set({ due_at: sql<Date>`now() - interval '1 second'` })
      .where("id", "=", due.id)
      .execute();
    await anvil.send({ from: sender, to: deposit, value: due.amount });
    await anvil.mine(3);
    expect(await passUntilScanned(unpaid.id)).toMatchObject({ status: "PENDING", tx_id: null, failure_reason: null });
    expect(await proofOf(database, due.id)).toMatchObject({ status: "PENDING", tx_id: null, chain_checked_at: null, chain_scan_cursor: null });
  });

  it("watches no PENDING proof unless AOPD_CHAIN_WATCH_PENDING says so", async () => {
    const off = aopdConfigFromEnv({ AOPD_CHAIN_ETHEREUM_URL: anvil.url, AOPD_CHAIN_ETHEREUM_CONFIRMATIONS: "1", AOPD_CHAIN_RECHECK_SECONDS: "0" });
    expect(off.chain.watchPending).toBe(false);
    const { id, amount } = await pendingProof(database, config, { asset: ether, sender, deposit });
    await anvil.send({ from: sender, to: deposit, value: amount });
    await new ChainWatcher(database.db, config.assets, off.chain, createLogger("chain-test")).pass();
    expect(await proofOf(database, id)).toMatchObject({ status: "PENDING", chain_checked_at: null });
    expect(() => aopdConfigFromEnv({ AOPD_CHAIN_WATCH_PENDING: "yes" })).toThrow("AOPD_CHAIN_WATCH_PENDING must be true or false.");
  });
});

describe("PENDING Bitcoin proofs matched through Blockbook's address API (recorded mainnet transactions)", () => {
  const fixtures = blockbookFixtures();
  /** The recorded payment in block 860,730 (block time 2024-09-10T08:18:08Z), and the recorded mempool one. */
  const mined = {
    txid: "8c1e3dec662d1f2a5e322ccef5eca263f98eb16723c6f990be0c88c1db113fb1",
    sender: "bc1qmgwnfjlda4ns3g6g3yz74w6scnn9yu2ts82yyc",
    deposit: "1Nb1ykSD7J5k4RFjJQGsrD9gxBE6jzfNa9",
    amount: 175_000n,
  };
  const unconfirmed = { sender: "bc1q9lh77es6m8ztr7muwcec00ewn8fxakpl9jwv8y", deposit: "bc1q4t7h8phena94prkqtm500mwzupcjvcs2akcdy9", amount: 293_135n };
  const beforeTheBlock = new Date("2024-09-10T00:00:00Z");
  let blockbook: BlockbookStandIn;
  let database: Database;
  let config: AopdConfig;
  let watcher: ChainWatcher;

  beforeAll(async () => {
    [blockbook, database] = await Promise.all([
      startBlockbookStandIn("key-in-path", Object.values(fixtures)),
      openTestDatabase("postgres", "chain16blockbookpending"),
    ]);
    config = aopdConfigFromEnv({
      AOPD_CHAIN_BITCOIN_URL: blockbook.url,
      AOPD_CHAIN_BITCOIN_CONFIRMATIONS: "1",
      AOPD_CHAIN_RECHECK_SECONDS: "0",
      AOPD_CHAIN_WATCH_PENDING: "true",
      // One transaction a page: the constructed address's two payments span two pages.
      AOPD_CHAIN_ADDRESS_PAGE_SIZE: "1",
    });
    watcher = new ChainWatcher(database.db, config.assets, config.chain, createLogger("chain-test"));
  });
  afterAll(async () => {
    await Promise.all([blockbook?.close(), database?.close()]);
  });

  it("matches the recorded payment to a proof made before it (its real payee, amount and sender), and VERIFIES it", async () => {
    const proof = await pendingProof(database, config, {
      asset: bitcoin,
      sender: mined.sender,
      deposit: mined.deposit,
      amount: mined.amount,
      createdAt: beforeTheBlock,
    });
    const otherAmount = await pendingProof(database, config, {
      asset: bitcoin,
      sender: mined.sender,
      deposit: mined.deposit,
      amount: mined.amount + 1n,
      createdAt: beforeTheBlock,
    });
    const madeAfter = await pendingProof(database, config, { asset: bitcoin, sender: mined.sender, deposit: mined.deposit, amount: mined.amount });
    const inMempool = await pendingProof(database, config, {
      asset: bitcoin,
      sender: unconfirmed.sender,
      deposit: unconfirmed.deposit,
      amount: unconfirmed.amount,
      createdAt: beforeTheBlock,
    });
    await watcher.pass();
    expect(await proofOf(database, proof.id)).toMatchObject({ status: "VERIFIED", tx_id: mined.txid, block_height: "860730", confirmations: 1 });
    expect(await statusesOf(database, proof.id)).toEqual(["PENDING", "SUBMITTED", "VERIFIED"]);
    // Not this proof's payment: another amount, a payment older than the proof, one not yet in a block.
    for (const id of [otherAmount.id, madeAfter.id, inMempool.id])
      expect(await proofOf(database, id)).toMatchObject({ status: "PENDING", tx_id: null, failure_reason: null });
    expect(blockbook.paths()).toContain(`/api/v2/address/${mined.deposit}?details=txs&page=1&pageSize=1`);
  });

  it("pages through the address newest first, past a mempool payment, to the mined one", async () => {
    const constructed = fixtures["constructed-confirmed-payment"]!;
    const proof = await pendingProof(database, config, {
      asset: bitcoin,
      sender: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
      deposit: "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h",
      amount: 12_345n,
      createdAt: new Date("2024-11-19T00:00:00Z"),
    });
    await watcher.pass();
    expect(await proofOf(database, proof.id)).toMatchObject({ status: "VERIFIED", tx_id: constructed.txid, confirmations: 5 });
    expect(blockbook.paths()).toContain("/api/v2/address/bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h?details=txs&page=2&pageSize=1");
  });

  it("backs off when the address API rate-limits, leaving the proofs as they are", async () => {
    const proof = await pendingProof(database, config, {
      asset: bitcoin,
      sender: mined.sender,
      deposit: mined.deposit,
      amount: mined.amount + 2n,
      createdAt: beforeTheBlock,
    });
    blockbook.failWith(429);
    try {
      await watcher.pass();
    } finally {
      blockbook.failWith(null);
    }
    expect(watcher.stats()[0]).toMatchObject({ network: "bitcoin", state: "backing_off", lastFailure: "rate_limited" });
    expect(watcher.degraded()).toEqual(["bitcoin chain connection"]);
    expect(await proofOf(database, proof.id)).toMatchObject({ status: "PENDING" });
  });
});

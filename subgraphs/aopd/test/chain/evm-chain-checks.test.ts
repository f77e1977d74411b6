import { AssetRegistry } from "@compliance-graph/dti-assets";
import { createLogger } from "@compliance-graph/process-shell";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aopdConfigFromEnv } from "../../src/aopd-config-from-env.js";
import type { AopdConfig } from "../../src/aopd-config.js";
import { ChainWatcher } from "../../src/kinds/satoshi/chain-watcher.js";
import type { Database } from "../../src/database/open-database.js";
import { requestSatoshiProof } from "../../src/kinds/satoshi/request-satoshi-proof.js";
import { customerActor } from "../../src/audit/audit-actor.js";
import { finalizeSatoshiProof } from "../../src/kinds/satoshi/satoshi-proof-transitions.js";
import { anvilAccounts, type LocalAnvil, startLocalAnvil } from "@compliance-graph/test-kit";
import { databaseDrivers, openTestDatabase } from "../support/test-database.js";

/** Who requests the proofs of this test, as the audit trail names them. */
const requester = { origin: { actor: { subject: "test-requester", client: "test", username: null, system: false }, requestId: null } };

const ether = "DTIX9J9K872S";
const usdt = "DTI2QWSBDMNC";
const [sender, deposit, stranger] = anvilAccounts;

describe.each(databaseDrivers)("Satoshi proofs checked on a real EVM node (anvil) on %s", (driver) => {
  let anvil: LocalAnvil;
  let database: Database;
  let config: AopdConfig;
  let watcher: ChainWatcher;
  let token: string;

  beforeAll(async () => {
    [anvil, database] = await Promise.all([startLocalAnvil(), openTestDatabase(driver, "evmchain")]);
    token = await anvil.deployToken(sender);
    // The registry's USDT, pointed at the token deployed here; 3 confirmations count; every proof is due at every pass.
    const fromEnv = aopdConfigFromEnv({ AOPD_CHAIN_ETHEREUM_URL: anvil.url, AOPD_CHAIN_ETHEREUM_CONFIRMATIONS: "3", AOPD_CHAIN_RECHECK_SECONDS: "0" });
    const assets = new AssetRegistry(fromEnv.assets.assets.map((asset) => (asset.code === usdt ? { ...asset, contract: token } : asset)));
    config = { ...fromEnv, assets };
    watcher = new ChainWatcher(database.db, assets, config.chain, createLogger("chain-test"));
  }, 180_000);
  afterAll(async () => {
    await Promise.all([anvil?.close(), database?.close()]);
  });

  const submittedProof = async (asset: string, pay: (amount: bigint) => Promise<string>) => {
    const { row } = await requestSatoshiProof(database.db, config, { customerId: "CUST-1", asset, senderAddress: sender, depositAddress: deposit }, requester);
    const txId = await pay(BigInt(row.amount!));
    await finalizeSatoshiProof(database.db, config, row.id, txId, { actor: customerActor("portal"), requestId: null });
    return row.id;
  };
  const proof = (id: string) => database.db.selectFrom("aopd_proof").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  it("keeps a proof SUBMITTED while its native transfer has too few confirmations, then VERIFIES it with block and confirmations", async () => {
    const id = await submittedProof(ether, (amount) => anvil.send({ from: sender, to: deposit, value: amount }));
    await watcher.pass();
    const shallow = await proof(id);
    expect(shallow).toMatchObject({ status: "SUBMITTED", confirmations: 1, assessment: null });
    expect(Number(shallow.block_height)).toBeGreaterThan(0);

    await anvil.mine(2);
    await watcher.pass();
    const verified = await proof(id);
    expect(verified).toMatchObject({ status: "VERIFIED", assessment: "VERIFIED", confirmations: 3, block_height: shallow.block_height, failure_reason: null });
    // The change went through the usual path: the table's trigger logged the event.
    const { rows } = await sql<{
      status: string;
    }>`SELECT proof->>'status' AS status FROM aopd_proof_event WHERE proof->>'id' = ${id} ORDER BY insertion`.execute(database.db);
    expect(rows.map((row) => row.status)).toEqual(["PENDING", "SUBMITTED", "VERIFIED"]);
    // And its audit trail: requested, the transaction reported, the chain check's result by the chain watcher.
    const trail = await database.db
      .selectFrom("aopd_audit_entry")
      .select(["action", "actor_subject", "actor_system", "details"])
      .where("proof_id", "=", id)
      .orderBy("seq")
      .orderBy("insertion")
      .execute();
    expect(trail.map((entry) => [entry.action, entry.actor_subject, entry.actor_system])).toEqual([
      ["REQUESTED", "test-requester", false],
      ["SUBMITTED", "customer", false],
      ["CHAIN_CHECKED", "system:chain-watcher", true],
    ]);
    expect(JSON.parse(trail[2]!.details)).toMatchObject({ outcome: "VERIFIED", reason: null });
  });

  it("VERIFIES an ERC-20 proof by the token's Transfer log, in the token's own unit", async () => {
    const id = await submittedProof(usdt, (amount) => anvil.transferToken(token, sender, deposit, amount));
    await anvil.mine(2);
    await watcher.pass();
    // Decided by the chain watcher, named as the system.
    expect(await proof(id)).toMatchObject({
      status: "VERIFIED",
      confirmations: 3,
      decider_subject: "system:chain-watcher",
      decider_client: "aopd",
      decider_system: true,
      decision_reason: null,
    });
  });

  it("FAILS a proof whose transaction pays the wrong amount, naming both amounts", async () => {
    let asked = 0n;
    const id = await submittedProof(ether, (amount) => {
      asked = amount;
      return anvil.send({ from: sender, to: deposit, value: amount + 1n });
    });
    await watcher.pass();
    expect(await proof(id)).toMatchObject({
      status: "FAILED",
      assessment: "FAILED",
      failure_reason: `The transaction pays ${asked + 1n} to the deposit address; the proof asks for exactly ${asked} (lowest denomination).`,
      decider_subject: "system:chain-watcher",
      decider_system: true,
      decision_reason: "WRONG_AMOUNT",
      decision_reason_text: `The transaction pays ${asked + 1n} to the deposit address; the proof asks for exactly ${asked} (lowest denomination).`,
    });
  });

  it("FAILS a token proof paid by another address, and one that pays another recipient", async () => {
    const fromStranger = await submittedProof(usdt, async (amount) => {
      await anvil.transferToken(token, sender, stranger, amount);
      return anvil.transferToken(token, stranger, deposit, amount);
    });
    const elsewhere = await submittedProof(ether, (amount) => anvil.send({ from: sender, to: stranger, value: amount }));
    await watcher.pass();
    expect(await proof(fromStranger)).toMatchObject({
      status: "FAILED",
      failure_reason: "The transaction does not come from the sender address.",
      decision_reason: "WRONG_SENDER",
    });
    expect(await proof(elsewhere)).toMatchObject({
      status: "FAILED",
      failure_reason: "The transaction pays nothing of the asset to the deposit address.",
      decision_reason: "WRONG_RECIPIENT",
    });
  });

  it("leaves a proof past its due time to the officer, and an unknown transaction waiting", async () => {
    const late = await submittedProof(ether, (amount) => anvil.send({ from: sender, to: deposit, value: amount + 5n }));
    await database.db
      .updateTable("aopd_proof")
      .set({ chain_check_until: sql<Date>`now() - interval '1 second'` })
      .where("id", "=", late)
      .execute();
    const unknown = await submittedProof(ether, async () => `0x${"ab".repeat(32)}`);
    await watcher.pass();
    expect(await proof(late)).toMatchObject({ status: "SUBMITTED", chain_checked_at: null });
    expect(await proof(unknown)).toMatchObject({ status: "SUBMITTED", block_height: null, confirmations: 0 });
    expect(watcher.stats()).toEqual([expect.objectContaining({ network: "ethereum", state: "ok", consecutiveFailures: 0 })]);
  });
});

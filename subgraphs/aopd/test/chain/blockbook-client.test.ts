import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { createLogger } from "@compliance-graph/server-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aopdConfigFromEnv, type AopdConfig } from "../../src/aopd-config.js";
import { ChainConnectionError } from "../../src/chain/chain-connection-error.js";
import type { ChainClient } from "../../src/chain/chain-transaction.js";
import { ChainWatcher } from "../../src/chain/chain-watcher.js";
import { judgeSatoshiTransaction } from "../../src/chain/judge-satoshi-transaction.js";
import type { Database } from "../../src/database/open-database.js";
import { configurationOf } from "../../src/graphql/configuration-of.js";
import { requestSatoshiProof } from "../../src/ingestion/request-satoshi-proof.js";
import { finalizeSatoshiProof } from "../../src/ingestion/satoshi-proof-transitions.js";
import { openTestDatabase } from "../support/test-database.js";

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/blockbook/${name}.json`, import.meta.url), "utf8")) as { txid: string };
const confirmed = fixture("confirmed-payment");
const mempool = fixture("mempool-payment");
const sender = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const deposit = "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h";
const secret = "sk-live-7f1e9c0a4b";
const txIds = { unknown400: "1".repeat(64), unknown404: "2".repeat(64), rateLimited: "3".repeat(64), broken: "4".repeat(64), notJson: "5".repeat(64) };

/** A stand-in for a Blockbook server (an external system): the fixtures, and its failure answers. */
function startBlockbookStandIn(): Promise<{ server: Server; url: string; requests: () => number }> {
  let requests = 0;
  const server = createServer((request, response) => {
    requests++;
    const txid = new RegExp(`^/${secret}/api/v2/tx/([0-9a-f]{64})$`).exec(request.url ?? "")?.[1];
    const send = (status: number, body: string, headers: Record<string, string> = {}) => response.writeHead(status, { "content-type": "application/json", ...headers }).end(body);
    if (txid === confirmed.txid) return send(200, JSON.stringify(confirmed));
    if (txid === mempool.txid) return send(200, JSON.stringify(mempool));
    if (txid === txIds.rateLimited) return send(429, `{"error":"Too many requests"}`, { "retry-after": "7" });
    if (txid === txIds.broken) return send(500, `{"error":"internal error"}`);
    if (txid === txIds.notJson) return send(200, "<html>maintenance</html>");
    if (txid === txIds.unknown404) return send(404, `{"error":"Not found"}`);
    return send(400, JSON.stringify({ error: `Transaction '${txid ?? ""}' not found` }));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/${secret}`, requests: () => requests })));
}

describe("Bitcoin chain checks through a Blockbook server", () => {
  let blockbook: Awaited<ReturnType<typeof startBlockbookStandIn>>;
  let config: AopdConfig;
  let client: ChainClient;

  beforeAll(async () => {
    blockbook = await startBlockbookStandIn();
    config = aopdConfigFromEnv({ AOPD_CHAIN_BITCOIN_URL: blockbook.url, AOPD_CHAIN_RECHECK_SECONDS: "0" });
    client = config.chain.connections[0]!.client;
  });
  afterAll(() => new Promise<void>((resolve) => blockbook.server.close(() => resolve())));

  it("reads a mined payment: height, confirmations, payments to addresses with every input address as payer", async () => {
    const tx = await client.transaction(confirmed.txid, null);
    expect(tx).toEqual({
      blockHeight: 871234,
      confirmations: 5,
      reverted: false,
      payments: [
        { to: deposit, amount: 12345n, from: [sender, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"] },
        { to: sender, amount: 275855n, from: [sender, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"] },
      ],
    });
    const request = { family: "bitcoin" as const, senderAddress: sender.toUpperCase(), depositAddress: deposit, amount: 12345n, requiredConfirmations: 3 };
    expect(judgeSatoshiTransaction(request, tx)).toEqual({ outcome: "verified", blockHeight: 871234, confirmations: 5 });
    expect(judgeSatoshiTransaction({ ...request, requiredConfirmations: 6 }, tx)).toEqual({ outcome: "waiting", blockHeight: 871234, confirmations: 5 });
    expect(judgeSatoshiTransaction({ ...request, amount: 12346n }, tx)).toMatchObject({ outcome: "failed" });
    expect(judgeSatoshiTransaction({ ...request, senderAddress: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" }, tx)).toMatchObject({
      outcome: "failed",
      reason: "The transaction does not come from the sender address.",
    });
  });

  it("judges nothing while the payment waits in the mempool", async () => {
    const tx = await client.transaction(mempool.txid, null);
    expect(tx).toMatchObject({ blockHeight: null, confirmations: 0 });
    expect(judgeSatoshiTransaction({ family: "bitcoin", senderAddress: sender, depositAddress: deposit, amount: 1n, requiredConfirmations: 1 }, tx)).toMatchObject({ outcome: "waiting" });
  });

  it("takes an unknown transaction (400 from Blockbook, 404 from a proxy) as not on chain yet", async () => {
    expect(await client.transaction(txIds.unknown400, null)).toBeNull();
    expect(await client.transaction(txIds.unknown404, null)).toBeNull();
  });

  it("turns rate limits, server errors, garbage and a dead server into ChainConnectionErrors that never quote the URL", async () => {
    const failureOf = async (c: ChainClient, txId: string) => (await c.transaction(txId, null).then(() => undefined, (error: unknown) => error)) as ChainConnectionError;
    const rateLimited = await failureOf(client, txIds.rateLimited);
    expect(rateLimited).toBeInstanceOf(ChainConnectionError);
    expect(rateLimited).toMatchObject({ code: "rate_limited", retryAfterMs: 7_000, network: "bitcoin" });
    expect(await failureOf(client, txIds.broken)).toMatchObject({ code: "server_error" });
    expect(await failureOf(client, txIds.notJson)).toMatchObject({ code: "bad_response" });
    const closed = aopdConfigFromEnv({ AOPD_CHAIN_BITCOIN_URL: `http://127.0.0.1:1/${secret}` }).chain.connections[0]!.client;
    const unreachable = await failureOf(closed, confirmed.txid);
    expect(unreachable).toMatchObject({ code: "unreachable" });
    for (const error of [rateLimited, unreachable]) expect(`${error.message} ${error.stack} ${inspect(error)}`).not.toContain(secret);
    // Neither the configuration as printed or serialized, nor the API's configuration, carries the key.
    expect(`${inspect(config.chain, { depth: 10 })} ${JSON.stringify(config.chain)} ${JSON.stringify(configurationOf(config))}`).not.toContain(secret);
    expect(configurationOf(config).supportedAssets.find((asset) => asset.asset === "DTI4H95J0R2X")).toMatchObject({ checkedOnChain: true, requiredConfirmations: 3 });
    expect(configurationOf(config).supportedAssets.find((asset) => asset.asset === "DTIX9J9K872S")).toMatchObject({ checkedOnChain: false, requiredConfirmations: null });
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
    const submitted = async (txId: string, amount?: string) => {
      const { row } = await requestSatoshiProof(database.db, config, { customerId: "CUST-2", asset: "DTI4H95J0R2X", senderAddress: sender, depositAddress: deposit });
      if (amount) await database.db.updateTable("aopd_proof").set({ amount }).where("id", "=", row.id).execute();
      await finalizeSatoshiProof(database.db, config, row.id, txId);
      return row.id;
    };
    const status = async (id: string) => (await database.db.selectFrom("aopd_proof").select(["status", "block_height", "confirmations"]).where("id", "=", id).executeTakeFirstOrThrow());

    it("verifies a proof whose transaction Blockbook shows deep enough", async () => {
      const id = await submitted(confirmed.txid, "12345");
      await watcher.pass();
      expect(await status(id)).toEqual({ status: "VERIFIED", block_height: "871234", confirmations: 5 });
    });

    it("backs off on a rate limit for as long as Retry-After says, reports degraded, and asks nothing meanwhile", async () => {
      const id = await submitted(txIds.rateLimited);
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

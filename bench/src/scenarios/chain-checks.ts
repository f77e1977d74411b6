import { performance } from "node:perf_hooks";
import { aopdConfigFromEnv } from "@compliance-graph/aopd";
import {
  ChainWatcher,
  claimProofsForChainCheck,
  customerActor,
  finalizeSatoshiProof,
  migrateToLatest,
  openDatabase,
  requestSatoshiProof,
} from "@compliance-graph/aopd/internals";
import { createLogger } from "@compliance-graph/process-shell";
import { sql } from "kysely";
import { anvilAccounts, startLocalAnvil } from "@compliance-graph/test-kit";
import type { BenchmarkScenario } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";

/** Who requests the proofs of this benchmark, as the audit trail names them. */
const requester = { origin: { actor: { subject: "bench-requester", client: "bench", username: null, system: false }, requestId: null } };

const ether = "DTIX9J9K872S";
const [sender, deposit] = anvilAccounts;

/**
 * Two figures: how fast one replica turns SUBMITTED proofs into VERIFIED ones against a real EVM
 * node (anvil, local: no network latency, so this is the watcher's and the database's own cost),
 * what the watcher costs when 10,000 proofs wait whose transactions the chain does not know, and
 * how fast PENDING proofs are matched by watching their deposit address (`AOPD_CHAIN_WATCH_PENDING`).
 */
export const chainChecksScenario: BenchmarkScenario = {
  name: "chain-checks",
  async run({ quick }) {
    const proofs = quick ? 50 : 1_000;
    const waiting = quick ? 1_000 : 10_000;
    const anvil = await startLocalAnvil();
    const database = await openDatabase({ databaseUrl: await freshBenchDatabase("bench_chain_checks"), maxConnections: 8 });
    try {
      await migrateToLatest(database.db);
      const env = {
        AOPD_CHAIN_ETHEREUM_URL: anvil.url,
        AOPD_CHAIN_ETHEREUM_CONFIRMATIONS: "1",
        AOPD_CHAIN_RECHECK_SECONDS: "0",
        AOPD_CHAIN_CHECK_BATCH: "100",
      };
      const config = aopdConfigFromEnv(env);
      const watcher = new ChainWatcher(database.db, config.assets, config.chain, createLogger("bench"));

      for (let i = 0; i < proofs; i++) {
        const { row } = await requestSatoshiProof(
          database.db,
          config,
          { customerId: `BENCH-${i}`, asset: ether, senderAddress: sender, depositAddress: deposit },
          requester,
        );
        await finalizeSatoshiProof(database.db, config, row.id, await anvil.send({ from: sender, to: deposit, value: BigInt(row.amount!) }), {
          actor: customerActor("portal"),
          requestId: null,
        });
      }
      const started = performance.now();
      while (await watcher.pass());
      const verifySeconds = (performance.now() - started) / 1_000;
      const verified = Number((await sql<{ n: string }>`SELECT count(*) AS n FROM aopd_proof WHERE status = 'VERIFIED'`.execute(database.db)).rows[0]!.n);

      // 10,000 SUBMITTED proofs whose transactions anvil does not know: every check asks the node and decides nothing.
      await sql`
        INSERT INTO aopd_proof (kind, status, customer_id, asset, address, deposit_address, amount, tx_id, chain_check_until)
        SELECT 'satoshi', 'SUBMITTED', 'WAIT-' || n, ${ether}, ${sender}, ${deposit}, 100000000000000 + n,
               '0x' || lpad(to_hex(n), 64, '0'), now() + interval '1 day'
        FROM generate_series(1, ${waiting}) AS n
      `.execute(database.db);
      const claimTimes: number[] = [];
      for (let i = 0; i < 20; i++) {
        const claimStarted = performance.now();
        await claimProofsForChainCheck(database.db, "SUBMITTED", [ether], 100, 3_600);
        claimTimes.push(performance.now() - claimStarted);
      }
      await sql`UPDATE aopd_proof SET chain_checked_at = NULL WHERE status = 'SUBMITTED'`.execute(database.db);
      // A lease of an hour: each waiting proof is checked once in the sweep (a recheck time of 0 would re-take them forever).
      const sweeper = new ChainWatcher(database.db, config.assets, { ...config.chain, recheckSeconds: 3_600 }, createLogger("bench"));
      const sweepStarted = performance.now();
      while (await sweeper.pass());
      const sweepSeconds = (performance.now() - sweepStarted) / 1_000;
      const stats = sweeper.stats()[0]!;
      claimTimes.sort((a, b) => a - b);

      // PENDING proofs, each paid by its own mined transaction and never reported: found by scanning the blocks.
      await sql`UPDATE aopd_proof SET chain_check_until = now() WHERE status = 'SUBMITTED'`.execute(database.db);
      const pendingCount = quick ? 50 : 500;
      const watchConfig = aopdConfigFromEnv({ ...env, AOPD_CHAIN_WATCH_PENDING: "true" });
      const firstBlock = Number(BigInt(await anvil.rpc<string>("eth_blockNumber")));
      for (let i = 0; i < pendingCount; i++) {
        const { row } = await requestSatoshiProof(
          database.db,
          watchConfig,
          { customerId: `PENDING-${i}`, asset: ether, senderAddress: sender, depositAddress: deposit },
          requester,
        );
        await anvil.send({ from: sender, to: deposit, value: BigInt(row.amount!) });
      }
      const scannedBlocks = Number(BigInt(await anvil.rpc<string>("eth_blockNumber"))) - firstBlock;
      const depositWatcher = new ChainWatcher(database.db, watchConfig.assets, watchConfig.chain, createLogger("bench"));
      const matchStarted = performance.now();
      let passes = 0;
      for (;;) {
        passes++;
        await depositWatcher.pass();
        const left = Number((await sql<{ n: string }>`SELECT count(*) AS n FROM aopd_proof WHERE status = 'PENDING'`.execute(database.db)).rows[0]!.n);
        if (left === 0 || passes >= 200) break;
      }
      const matchSeconds = (performance.now() - matchStarted) / 1_000;
      const watchStats = depositWatcher.stats()[0]!;
      return [
        {
          title: "Chain checks against anvil",
          method: `${proofs} SUBMITTED Ether proofs, each with its own mined transaction on a local anvil node; one watcher (batch 100, 4 requests in flight, 1 confirmation) passes until none is left; PostgreSQL on this machine. Then ${waiting.toLocaleString("en")} SUBMITTED proofs whose transactions anvil does not know: the claim of a batch of 100 (20 times) and one full sweep of all of them.`,
          columns: ["measure", "value"],
          rows: [
            ["proofs verified", `${verified} of ${proofs}`],
            ["verified per second", (verified / verifySeconds).toFixed(0)],
            [`claim of 100 among ${waiting.toLocaleString("en")} waiting, median`, `${claimTimes[10]!.toFixed(1)} ms`],
            [`claim of 100 among ${waiting.toLocaleString("en")} waiting, slowest of 20`, `${claimTimes[19]!.toFixed(1)} ms`],
            [`full sweep of ${waiting.toLocaleString("en")} waiting proofs`, `${sweepSeconds.toFixed(1)} s (${(waiting / sweepSeconds).toFixed(0)} checks/s)`],
            ["checks made by the watcher in all", stats.checks],
          ],
          notes: [
            "A real provider adds its latency per request (one to three calls per check) and its rate limit; the sweep rate then falls to about concurrency / latency.",
          ],
        },
        {
          title: "PENDING proofs matched by their deposit address (anvil)",
          method: `${pendingCount} PENDING Ether proofs to one deposit address, each paid with its exact amount by its own mined transaction (one block each, ${scannedBlocks} blocks) and never reported; one watcher with AOPD_CHAIN_WATCH_PENDING=true (batch 100, 4 in flight, 1 confirmation, 100 blocks per proof and pass, recheck 0) passes until none is PENDING. Each proof finds its first block by a binary search on timestamps, then scans blocks with eth_getBlockByNumber(n, true); deep blocks are cached and shared by the proofs.`,
          columns: ["measure", "value"],
          rows: [
            ["proofs matched (then VERIFIED)", `${watchStats.matched} of ${pendingCount}`],
            ["passes", passes],
            ["matched per second", (watchStats.matched / matchSeconds).toFixed(0)],
            ["deposit watches (one proof, one pass)", watchStats.depositWatches],
          ],
          notes: [
            "Every proof re-reads the blocks since its creation, from the cache when they are deep: a busy network or a long-lived proof costs more requests per match than this local chain of a few hundred blocks.",
          ],
        },
      ];
    } finally {
      await database.close();
      await anvil.close();
    }
  },
};

import { performance } from "node:perf_hooks";
import { aopdConfigFromEnv, ChainWatcher, claimProofsForChainCheck, finalizeSatoshiProof, migrateToLatest, openDatabase, requestSatoshiProof } from "@compliance-graph/aopd";
import { createLogger } from "@compliance-graph/server-kit";
import { sql } from "kysely";
import { anvilAccounts, startLocalAnvil } from "../../../subgraphs/aopd/test/support/local-anvil.js";
import type { BenchmarkScenario } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";

const ether = "DTIX9J9K872S";
const [sender, deposit] = anvilAccounts;

/**
 * Two figures: how fast one replica turns SUBMITTED proofs into VERIFIED ones against a real EVM
 * node (anvil, local: no network latency, so this is the watcher's and the database's own cost),
 * and what the watcher costs when 10,000 proofs wait whose transactions the chain does not know.
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
      const env = { AOPD_CHAIN_ETHEREUM_URL: anvil.url, AOPD_CHAIN_ETHEREUM_CONFIRMATIONS: "1", AOPD_CHAIN_RECHECK_SECONDS: "0", AOPD_CHAIN_CHECK_BATCH: "100" };
      const config = aopdConfigFromEnv(env);
      const watcher = new ChainWatcher(database.db, config.assets, config.chain, createLogger("bench"));

      for (let i = 0; i < proofs; i++) {
        const { row } = await requestSatoshiProof(database.db, config, { customerId: `BENCH-${i}`, asset: ether, senderAddress: sender, depositAddress: deposit });
        await finalizeSatoshiProof(database.db, config, row.id, await anvil.send({ from: sender, to: deposit, value: BigInt(row.amount!) }));
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
        await claimProofsForChainCheck(database.db, [ether], 100, 3_600);
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
          notes: ["A real provider adds its latency per request (one to three calls per check) and its rate limit; the sweep rate then falls to about concurrency / latency."],
        },
      ];
    } finally {
      await database.close();
      await anvil.close();
    }
  },
};

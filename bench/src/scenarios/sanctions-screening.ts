import os from "node:os";
import { sql } from "kysely";
import { AssetRegistry } from "@compliance-graph/dti-assets";
import { migrateToLatest, openDatabase, type Database } from "@compliance-graph/aopd/internals";
import { importSanctionsList, rescreenProofs, screenAddress } from "@compliance-graph/aopd/internals";
import { bundledSanctionsLists, readSanctionsList } from "@compliance-graph/sanctions-lists";
import type { BenchmarkScenario } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";
import { measureLatency, ms, percentile } from "../support/latency.js";

const assets = ["DTI4H95J0R2X", "DTIX9J9K872S", "DTIHWN9T781J", "DTI993D8X1FB"] as const;

/**
 * Sanctions screening (docs/screening.md) on the PostgreSQL server: importing a list version,
 * screening one address, and re-screening every proof after an import. The proofs are written with
 * one INSERT ... SELECT (screening trigger off while filling, so the fill is not what is timed);
 * one proof in 1,000 carries an address of the 2024-09-27 list.
 */
export const sanctionsScreeningScenario: BenchmarkScenario = {
  name: "sanctions-screening",
  async run({ quick }) {
    const proofs = quick ? 100_000 : 1_000_000;
    const registry = AssetRegistry.load();
    const [older, newer] = bundledSanctionsLists();
    const url = await freshBenchDatabase("aopd_bench_screening");
    const database: Database = await openDatabase({ databaseUrl: url });
    const db = database.longRunning;
    try {
      await migrateToLatest(db);
      const readStarted = performance.now();
      const olderList = await readSanctionsList([older!]);
      const readMs = performance.now() - readStarted;
      const importStarted = performance.now();
      const firstImport = await importSanctionsList(db, registry, olderList);
      const importMs = performance.now() - importStarted;

      const newerList = await readSanctionsList([newer!]);
      // The addresses the newer version adds come first, so that its import changes some proofs' screening.
      const inOlder = new Set(olderList.addresses.map((entry) => `${entry.ofacAsset} ${entry.address}`));
      const listed = newerList.addresses
        .filter((entry) => entry.family === "bitcoin" || entry.family === "tron" || entry.family === "ethereum")
        .sort((a, b) => Number(inOlder.has(`${a.ofacAsset} ${a.address}`)) - Number(inOlder.has(`${b.ofacAsset} ${b.address}`)));
      // A listed address is written on an asset of its family (EVM ones alternately on Ethereum and BSC), so that it matches.
      const assetOfFamily = { bitcoin: ["DTI4H95J0R2X"], ethereum: ["DTIX9J9K872S", "DTIHWN9T781J"], tron: ["DTI993D8X1FB"] } as const;
      const listedAssets = listed.map((entry, index) => {
        const choices = assetOfFamily[entry.family as keyof typeof assetOfFamily];
        return choices[index % choices.length]!;
      });
      await sql`ALTER TABLE aopd_proof DISABLE TRIGGER aopd_proof_screened, DISABLE TRIGGER aopd_proof_created`.execute(db);
      const fillStarted = performance.now();
      await sql`
        INSERT INTO aopd_proof (kind, status, customer_id, asset, address, message)
        SELECT 'signature', 'VERIFIED', 'bench-' || (n % 5000),
          CASE WHEN n % 1000 = 0 THEN (${listedAssets}::text[])[1 + (n / 1000) % ${listed.length}] ELSE (${[...assets]}::text[])[1 + n % 4] END,
          CASE WHEN n % 1000 = 0 THEN (${listed.map((entry) => entry.address)}::text[])[1 + (n / 1000) % ${listed.length}]
               ELSE 'addr' || md5(n::text) END,
          'm'
        FROM generate_series(1, ${proofs}) AS n
      `.execute(db);
      const fillSeconds = (performance.now() - fillStarted) / 1000;
      await sql`ALTER TABLE aopd_proof ENABLE TRIGGER aopd_proof_screened, ENABLE TRIGGER aopd_proof_created`.execute(db);
      await sql`VACUUM ANALYZE aopd_proof`.execute(db);

      // Every proof NOT_SCREENED: the one-off first screening (every row written).
      const firstStarted = performance.now();
      const first = await db.transaction().execute((trx) => rescreenProofs(trx));
      const firstSeconds = (performance.now() - firstStarted) / 1000;
      await sql`VACUUM ANALYZE aopd_proof`.execute(db);

      // A new version over proofs already screened: what every later import costs.
      const nextStarted = performance.now();
      const next = await importSanctionsList(db, registry, newerList);
      const nextSeconds = (performance.now() - nextStarted) / 1000;

      const candidates = [...listed.slice(0, 50).map((entry) => entry.address), ...Array.from({ length: 50 }, (_, i) => `1NotListed${i}xxxxxxxxxxxxxxxxxxx`)];
      let call = 0;
      const samples = await measureLatency(
        () => {
          call += 1;
          return screenAddress(database.db, assets[call % assets.length]!, candidates[call % candidates.length]!);
        },
        quick ? 500 : 5_000,
        50,
      );
      const load = os
        .loadavg()
        .map((value) => value.toFixed(2))
        .join(" ");
      return [
        {
          title: "Sanctions screening",
          method:
            `PostgreSQL server; ${proofs.toLocaleString("en")} proofs (four assets, one in 1,000 at a listed address). Load average at the end: ${load}. ` +
            "Import: read the per-asset text lists, write the version and its entries, re-screen (no proofs yet). First screening: one UPDATE over proofs all NOT_SCREENED. " +
            "Re-screen after an import: the next version (5 addresses more) imported over proofs already screened, one statement writing only the changed rows. Single screening: `aopd_screen_address`, sequential calls.",
          columns: ["measure", "value"],
          rows: [
            ["read the 2024-05-29 text lists", `${ms(readMs)} ms (${olderList.addresses.length} addresses)`],
            ["import the 2024-05-29 version (no proofs)", `${ms(importMs)} ms (${firstImport.addresses} entries)`],
            [`fill ${proofs.toLocaleString("en")} proofs (setup, triggers off)`, `${fillSeconds.toFixed(1)} s`],
            [`first screening of ${proofs.toLocaleString("en")} proofs`, `${firstSeconds.toFixed(1)} s (${first.length.toLocaleString("en")} rows written)`],
            [
              `import 2024-09-27 and re-screen ${proofs.toLocaleString("en")} proofs`,
              `${nextSeconds.toFixed(2)} s (${next.changes.length} screenings changed)`,
            ],
            ["single address screening p50", `${ms(percentile(samples, 50))} ms`],
            ["single address screening p99", `${ms(percentile(samples, 99))} ms`],
          ],
          notes: ["Aim: re-screening 1,000,000 proofs after an import under 30 s."],
        },
      ];
    } finally {
      await database.close();
    }
  },
};

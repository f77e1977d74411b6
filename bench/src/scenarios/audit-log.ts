import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kysely } from "kysely";
import { startAopd } from "@compliance-graph/aopd";
import {
  appendAuditEntries,
  auditInclusionProof,
  auditTreeSize,
  chainAuditEntries,
  chainSpacingMs,
  decideProof,
  latestAuditCheckpoint,
  loadCheckpointSigner,
  migrateToLatest,
  openDatabase,
  runAuditWitness,
  sequenceAuditLog,
  Sequencer,
  type AopdDatabase,
} from "@compliance-graph/aopd/internals";
import { createLogger } from "@compliance-graph/process-shell";
import { pollUntil } from "@compliance-graph/test-kit";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";
import { ms, percentile } from "../support/latency.js";
import { setTrailRecording, submittedMediaProofs } from "./audit-trail.js";

const officer = { subject: "bench-officer", client: "bench", username: "bench officer", system: false };
const logger = createLogger("bench", "silent");
const checkpointSigner = loadCheckpointSigner({ checkpointKey: undefined }, false).signer;
/** `BENCH_AUDIT_LOG_DATABASE`: the scenario's database (dropped and created). @default "aopd_bench_audit_log" */
const databaseName = process.env.BENCH_AUDIT_LOG_DATABASE ?? "aopd_bench_audit_log";
/** `BENCH_AUDIT_LOG_ENTRIES`: the log's size for the proof and witness figures. @default 1_000_000 (100,000 with --quick) */
const entriesFromEnv = process.env.BENCH_AUDIT_LOG_ENTRIES;

/** Decides every proof, 8 at a time; with the log on, aopd's sequencer (chain, tree, checkpoints) runs beside and the round ends when all is chained and a checkpoint covers it. */
async function decisionsPerSecond(db: Kysely<AopdDatabase>, ids: string[], recording: boolean): Promise<number> {
  let next = 0;
  const sequencer = new Sequencer({
    what: "the audit log",
    sequence: () => sequenceAuditLog(db, { signer: checkpointSigner, checkpointIntervalMs: 1_000, onSetAside: () => {}, onFork: () => {} }),
    logger,
    spacingMs: chainSpacingMs,
  });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        await decideProof(db, {
          kind: "media",
          id,
          outcome: "VERIFIED",
          reason: null,
          reasonText: null,
          comment: "address visible",
          decider: officer,
          requestId: `bench-${id}`,
        });
        if (recording) sequencer.request();
      }
    }),
  );
  await sequencer.stop();
  if (recording) await sequenceAuditLog(db, { signer: checkpointSigner, checkpointIntervalMs: 0, onSetAside: () => {}, onFork: () => {} });
  return ids.length / ((performance.now() - started) / 1_000);
}

/** Appends and chains `count` entries in transactions of 1,000 through aopd's own paths (authenticated, chained, leaves of the tree). */
async function fillLog(db: Kysely<AopdDatabase>, count: number): Promise<number> {
  const started = performance.now();
  const origin = { actor: officer, requestId: null };
  for (let written = 0; written < count; written += 1_000) {
    const events = Array.from({ length: Math.min(1_000, count - written) }, (_unused, index) => ({
      origin,
      action: "MEDIA_DOWNLOADED" as const,
      proofId: null,
      details: { byteSize: 1_000 + ((written + index) % 1_000) },
    }));
    await appendAuditEntries(db, events);
    await chainAuditEntries(db);
  }
  return (performance.now() - started) / 1_000;
}

/**
 * The audit log's cost and speed (docs/audit-transparency.md): decisions per second with the log
 * (authentication, chain, tree, checkpoints) against the trail off; inclusion proofs and a
 * witness's run on a long log.
 */
export const auditLogScenario: BenchmarkScenario = {
  name: "audit-log",
  async run({ quick }) {
    const size = entriesFromEnv ? Number(entriesFromEnv) : quick ? 100_000 : 1_000_000;
    const databaseUrl = await freshBenchDatabase(databaseName);
    const database = await openDatabase({ databaseUrl, maxConnections: 10 });
    const tables: BenchmarkTable[] = [];
    try {
      await migrateToLatest(database.db);
      const perRound = quick ? 500 : 2_000;
      const rates = { off: [] as number[], on: [] as number[] };
      for (let round = 0; round < 3; round += 1) {
        await setTrailRecording(database.db, false);
        rates.off.push(await decisionsPerSecond(database.db, await submittedMediaProofs(database.db, perRound, round * 2), false));
        await setTrailRecording(database.db, true);
        rates.on.push(await decisionsPerSecond(database.db, await submittedMediaProofs(database.db, perRound, round * 2 + 1), true));
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
      tables.push({
        title: "Audit log: decisions per second, log on against trail off",
        method: `\`decideProof\` by 8 officers at once, ${perRound} decisions a round, 3 rounds each way alternating, median; on: each entry authenticated (HMAC-SHA-256), chained, a leaf of the Merkle tree, checkpoints signed every second by aopd's sequencer beside the officers (the round ends when all is chained and signed); off: the trail's inserts dropped by a rule.`,
        columns: ["trail", "decisions/s", "ratio"],
        rows: [
          ["off", median(rates.off).toFixed(0), "1.00"],
          ["on (authentication, tree, checkpoints)", median(rates.on).toFixed(0), (median(rates.on) / median(rates.off)).toFixed(2)],
        ],
      });

      const filling = await fillLog(database.db, size - (await auditTreeSize(database.db)));
      const treeSize = await auditTreeSize(database.db);
      const proofTimes: number[] = [];
      for (let sample = 0; sample < 1_000 + 50; sample += 1) {
        const leaf = Math.floor((sample * 7_919 * 104_729) % treeSize);
        const started = performance.now();
        await auditInclusionProof(database.db, leaf, treeSize);
        if (sample >= 50) proofTimes.push(performance.now() - started);
      }
      proofTimes.sort((a, b) => a - b);
      tables.push({
        title: `Audit log: inclusion proofs at ${treeSize.toLocaleString("en")} entries`,
        method: `\`auditInclusionProof\` as \`auditInclusionProof\` in GraphQL calls it, on the PostgreSQL server, 1,000 leaves spread over the tree after 50 of warm-up. The log was filled through aopd's own paths, 1,000 entries a transaction, in ${filling.toFixed(0)} s.`,
        columns: ["entries", "p50 (ms)", "p95 (ms)", "p99 (ms)"],
        rows: [[treeSize.toLocaleString("en"), ms(percentile(proofTimes, 50)), ms(percentile(proofTimes, 95)), ms(percentile(proofTimes, 99))]],
      });

      const aopd = await startAopd({
        config: { port: 0, databaseUrl, expiryIntervalSeconds: 0 },
        insecureDevelopmentIdentity: true,
        logger,
        loadBundledSanctionsList: false,
      });
      try {
        const base = new URL(aopd.url).origin;
        await pollUntil(
          "a checkpoint of the filled log",
          () => latestAuditCheckpoint(database.db),
          (latest) => latest !== null && latest.treeSize >= treeSize,
          { timeoutMs: 120_000, intervalMs: 200 },
        );
        const statePath = join(await mkdtemp(join(tmpdir(), "bench-witness-")), "state.json");
        const first = await runAuditWitness({ url: base, statePath });
        if (first.code !== 0) throw new Error(`the witness's first run failed: ${first.lines.join("; ")}`);
        const added = 10_000;
        await fillLog(database.db, added);
        await pollUntil(
          "a checkpoint of the new entries",
          () => latestAuditCheckpoint(database.db),
          (latest) => latest !== null && latest.treeSize >= treeSize + added,
          { timeoutMs: 120_000, intervalMs: 200 },
        );
        const started = performance.now();
        const run = await runAuditWitness({ url: base, statePath });
        const seconds = (performance.now() - started) / 1_000;
        if (run.code !== 0) throw new Error(`the witness failed: ${run.lines.join("; ")}`);
        tables.push({
          title: `Audit log: a witness's run after ${added.toLocaleString("en")} new entries at ${treeSize.toLocaleString("en")}`,
          method:
            "`runAuditWitness` (what `npm run audit-witness` runs, without its process start) against aopd's public routes on this machine: the key, the latest checkpoint, its signature, the consistency proof, its verification, the state written. No cosignature.",
          columns: ["log", "new entries", "witness run (s)"],
          rows: [[treeSize.toLocaleString("en"), added.toLocaleString("en"), seconds.toFixed(3)]],
        });
      } finally {
        await aopd.close();
      }
    } finally {
      await database.close();
    }
    return tables;
  },
};

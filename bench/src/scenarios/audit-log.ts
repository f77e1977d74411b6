import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kysely } from "kysely";
import { startAopd } from "@compliance-graph/aopd";
import {
  appendAuditEntries,
  auditInclusionProof,
  auditTreeSize,
  chainSpacingMs,
  decideProof,
  latestAuditCheckpoint,
  loadCheckpointSigner,
  migrateToLatest,
  openDatabase,
  runAuditWitness,
  seedAuditLog,
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

/** Appends `count` entries in transactions of 1,000 through aopd's own path (authenticated at append, unchained): the running aopd's sequencer chains them, grows the tree and signs. */
async function appendThroughAopd(db: Kysely<AopdDatabase>, count: number): Promise<void> {
  const origin = { actor: officer, requestId: null };
  for (let written = 0; written < count; written += 1_000) {
    const events = Array.from({ length: Math.min(1_000, count - written) }, (_unused, index) => ({
      origin,
      action: "MEDIA_DOWNLOADED" as const,
      proofId: null,
      details: { byteSize: 1_000 + ((written + index) % 1_000) },
    }));
    await appendAuditEntries(db, events);
  }
}

/** Decisions per second with the trail off and with the log on, 3 rounds each way alternating; the medians. `firstRound` keeps each round's proofs apart. */
async function decisionRates(db: Kysely<AopdDatabase>, perRound: number, firstRound: number): Promise<{ off: number; on: number }> {
  const rates = { off: [] as number[], on: [] as number[] };
  for (let round = firstRound; round < firstRound + 3; round += 1) {
    await setTrailRecording(db, false);
    rates.off.push(await decisionsPerSecond(db, await submittedMediaProofs(db, perRound, round * 2), false));
    await setTrailRecording(db, true);
    rates.on.push(await decisionsPerSecond(db, await submittedMediaProofs(db, perRound, round * 2 + 1), true));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
  return { off: median(rates.off), on: median(rates.on) };
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
      const empty = await decisionRates(database.db, perRound, 0);

      const before = await auditTreeSize(database.db);
      const fillStarted = performance.now();
      await seedAuditLog(database, { count: size - before });
      const filling = (performance.now() - fillStarted) / 1_000;
      const long = await decisionRates(database.db, perRound, 3);
      const logSize = (entries: number) => entries.toLocaleString("en");
      tables.push({
        title: "Audit log: decisions per second, log on against trail off",
        method: `\`decideProof\` by 8 officers at once, ${perRound} decisions a round, 3 rounds each way alternating, median; on: each entry authenticated (HMAC-SHA-256), chained, a leaf of the Merkle tree, checkpoints signed every second by aopd's sequencer beside the officers (the round ends when all is chained and signed); off: the trail's inserts dropped by a rule. Measured on a new log, then again once the log was filled to ${logSize(size)} entries.`,
        columns: ["log before", "trail", "decisions/s", "ratio"],
        rows: [
          [logSize(before), "off", empty.off.toFixed(0), "1.00"],
          [logSize(before), "on (authentication, tree, checkpoints)", empty.on.toFixed(0), (empty.on / empty.off).toFixed(2)],
          [logSize(size), "off", long.off.toFixed(0), "1.00"],
          [logSize(size), "on (authentication, tree, checkpoints)", long.on.toFixed(0), (long.on / long.off).toFixed(2)],
        ],
      });

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
        method: `\`auditInclusionProof\` as \`auditInclusionProof\` in GraphQL calls it, on the PostgreSQL server, 1,000 leaves spread over the tree after 50 of warm-up. The log was filled in bulk by \`seedAuditLog\` (entries authenticated, chained and made leaves by aopd's own functions, 20,000 a transaction, inserted chained) with ${logSize(size - before)} entries in ${filling.toFixed(0)} s (${Math.round((size - before) / filling).toLocaleString("en")} entries/s), then decided on as above.`,
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
        await appendThroughAopd(database.db, added);
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
            "`runAuditWitness` (what `npm run audit-witness` runs, without its process start) against aopd's public routes on this machine: the key, the latest checkpoint, its signature, the consistency proof, its verification, the state written. No cosignature. The new entries were appended by `appendAuditEntries`, 1,000 a transaction, and chained, made leaves and signed by the running aopd's sequencer.",
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

import { spawn } from "node:child_process";
import { sql, type Kysely } from "kysely";
import { migrateToLatest, openDatabase, type AopdDatabase, type Database } from "@compliance-graph/aopd/internals";
import {
  appendAuditEntries,
  auditKeyring,
  chainAuditEntries,
  chainSpacingMs,
  decideProof,
  replayTrailAgainstTables,
  selectAuditTrailPage,
  Sequencer,
} from "@compliance-graph/aopd/internals";
import { createLogger } from "@compliance-graph/process-shell";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";
import { ms, percentile } from "../support/latency.js";
import { treeRss } from "../support/peak-rss.js";

const officer = { subject: "bench-officer", client: "bench", username: "bench officer", system: false };
const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** `count` SUBMITTED media proofs (their file's metadata set, no bytes: deciding reads none), in multi-row inserts. */
export async function submittedMediaProofs(db: Kysely<AopdDatabase>, count: number, round: number): Promise<string[]> {
  const ids: string[] = [];
  for (let written = 0; written < count; written += 1_000) {
    const rows = Array.from({ length: Math.min(1_000, count - written) }, (_unused, index) => ({
      kind: "media" as const,
      status: "SUBMITTED" as const,
      customer_id: `bench-${round}-${written + index}`,
      asset: "DTI4H95J0R2X",
      address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
      media_content_type: "image/png" as const,
      media_byte_size: 1_000,
      media_sha256: "ab".repeat(32),
      media_uploaded_at: new Date(),
    }));
    ids.push(...(await db.insertInto("aopd_proof").values(rows).returning("id").execute()).map((row) => row.id));
  }
  return ids;
}

/**
 * Turns the trail off or on in the benchmark's own database, as the table's owner may: a rule that
 * drops every insert of an entry (no entry, no trigger, nothing for the sequencer). For the "off"
 * figure only; aopd has no switch of its own.
 */
export async function setTrailRecording(db: Kysely<AopdDatabase>, recording: boolean): Promise<void> {
  if (recording) await sql`DROP RULE aopd_bench_trail_off ON aopd_audit_entry`.execute(db);
  else await sql`CREATE RULE aopd_bench_trail_off AS ON INSERT TO aopd_audit_entry DO INSTEAD NOTHING`.execute(db);
}

/**
 * Decides every proof, `workers` at a time, each decision its own transaction as `assessMediaProof`
 * makes it; decisions per second. With the trail on, a replica's sequencer runs beside the officers
 * as aopd runs it (requested after each decision, as its NOTIFY would; requests during a run
 * coalesce, runs spaced by `chainSpacingMs`), and the round ends when every entry is chained: its
 * cost is in the figure.
 */
async function decisionsPerSecond(db: Kysely<AopdDatabase>, ids: string[], workers: number, recording = true): Promise<number> {
  let next = 0;
  const sequencer = new Sequencer({
    what: "chaining audit entries",
    sequence: () => chainAuditEntries(db),
    logger: createLogger("bench"),
    spacingMs: chainSpacingMs,
  });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
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
  if (recording) await chainAuditEntries(db);
  return ids.length / ((performance.now() - started) / 1_000);
}

/** Fills the trail with `count` entries, in transactions of 1,000 through the append path and the sequencer (so their hashes are real). */
async function fillTrail(db: Kysely<AopdDatabase>, count: number): Promise<void> {
  const origin = { actor: officer, requestId: null };
  for (let written = 0; written < count; written += 1_000) {
    const events = Array.from({ length: Math.min(1_000, count - written) }, (_unused, index) => ({
      origin,
      action: "MEDIA_DOWNLOADED" as const,
      proofId: null,
      details: { evidenceHash: `sha256:${"cd".repeat(32)}`, byteSize: 1_000 + ((written + index) % 1_000) },
    }));
    await appendAuditEntries(db, events);
    await chainAuditEntries(db);
  }
}

/** The chain head's `seq`: how many entries are chained. */
async function chainHeadSeq(db: Kysely<AopdDatabase>): Promise<number> {
  return Number((await sql<{ n: string }>`SELECT seq::text AS n FROM aopd_audit_head`.execute(db)).rows[0]!.n);
}

/**
 * Reads of the trail's pages as `auditTrail` makes them, kinds in turn (first page, a page deep in
 * the trail, the page that reaches the chain's end with unchained entries after it, a filtered
 * page), so that one kind's cache does not favour it; milliseconds per page.
 */
async function pageReadTable(db: Kysely<AopdDatabase>, total: number, rounds: number): Promise<BenchmarkTable> {
  const unchained = 50;
  const origin = { actor: officer, requestId: null };
  await appendAuditEntries(
    db,
    Array.from({ length: unchained }, (_unused, index) => ({ origin, action: "AUDIT_TRAIL_EXPORTED" as const, proofId: null, details: { rows: index } })),
  );
  const head = await chainHeadSeq(db);
  const kinds: { name: string; read: () => Promise<{ entries: unknown[] }> }[] = [
    { name: "first page (100)", read: () => selectAuditTrailPage(db, { limit: 100 }) },
    { name: "page in the middle (100)", read: () => selectAuditTrailPage(db, { after: String(Math.floor(head / 2)), limit: 100 }) },
    { name: `the chain's end (50 chained, ${unchained} unchained)`, read: () => selectAuditTrailPage(db, { after: String(head - 50), limit: 100 }) },
    {
      name: "filtered by actor and action (1,000)",
      read: () =>
        selectAuditTrailPage(db, {
          filter: { actorSubject: officer.subject, actions: ["MEDIA_DOWNLOADED"] },
          after: String(Math.floor(head / 3)),
          limit: 1_000,
        }),
    },
  ];
  const samples = kinds.map(() => [] as number[]);
  const sizes = kinds.map(() => 0);
  for (let round = 0; round < rounds + 3; round += 1) {
    for (let turn = 0; turn < kinds.length; turn += 1) {
      const index = (round + turn) % kinds.length;
      const started = performance.now();
      sizes[index] = (await kinds[index]!.read()).entries.length;
      if (round >= 3) samples[index]!.push(performance.now() - started);
    }
  }
  return {
    title: `Audit trail: pages read from ${total.toLocaleString("en")} entries`,
    method: `\`selectAuditTrailPage\` as \`auditTrail\` calls it, on the PostgreSQL server; the four kinds in turn, ${rounds} rounds after 3 of warm-up.`,
    columns: ["page", "entries", "p50 (ms)", "p95 (ms)"],
    rows: kinds.map((kind, index) => {
      const sorted = samples[index]!.sort((a, b) => a - b);
      return [kind.name, sizes[index]!, ms(percentile(sorted, 50)), ms(percentile(sorted, 95))];
    }),
  };
}

/** The seconds of the walk itself, as verify-audit reports them ("… verified in 23.4 s"). */
function walkSeconds(output: string): number {
  const match = /verified in ([0-9.]+) s/.exec(output);
  if (!match) throw new Error(`verify-audit did not report its time: ${output}`);
  return Number(match[1]);
}

/** Runs `npm run verify-audit` against the database as its own process, sampling its RSS at each progress line and at the end. */
async function runVerifyAudit(databaseUrl: string): Promise<{ output: string; seconds: number; rssAt: { verified: number; rss: number }[]; peak: number }> {
  const child = spawn(process.execPath, ["--import", "tsx", "subgraphs/aopd/src/cli/verify-audit.ts"], {
    cwd: new URL("../../../", import.meta.url),
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const started = performance.now();
  const rssAt: { verified: number; rss: number }[] = [];
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, treeRss(child.pid!))), 100);
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => {
    for (const match of chunk.toString().matchAll(/verified (\d+) entries/g)) rssAt.push({ verified: Number(match[1]), rss: treeRss(child.pid!) });
  });
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`verify-audit exited with ${code}: ${output}`);
  return { output: output.trim(), seconds: (performance.now() - started) / 1_000, rssAt, peak };
}

/**
 * What the audit trail costs: decisions per second with the trail on and off (off: the benchmark's
 * own database is told by the table's owner to drop every entry, `setTrailRecording`; aopd itself
 * has no such switch), and `npm run verify-audit` over a long trail: entries
 * per second and its memory as it goes, which should stay flat (it reads in keyset batches); and
 * the trail's pages read from it.
 */
export const auditTrailScenario: BenchmarkScenario = {
  name: "audit-trail",
  async run({ quick }) {
    const workers = 8;
    const perRound = quick ? 500 : 2_000;
    const rounds = quick ? 2 : 5;
    const entries = Number(process.env.BENCH_AUDIT_ENTRIES ?? (quick ? 100_000 : 1_000_000));
    const url = await freshBenchDatabase("aopd_bench_audit_trail");
    let database: Database | undefined;
    try {
      database = await openDatabase({ databaseUrl: url, maxConnections: workers });
      await migrateToLatest(database.db);
      const db = database.db;
      await decisionsPerSecond(db, await submittedMediaProofs(db, 200, -1), workers);
      const rates = { on: [] as number[], off: [] as number[] };
      for (let round = 0; round < rounds; round += 1) {
        rates.on.push(await decisionsPerSecond(db, await submittedMediaProofs(db, perRound, round * 2), workers));
        const proofs = await submittedMediaProofs(db, perRound, round * 2 + 1);
        await setTrailRecording(db, false);
        rates.off.push(await decisionsPerSecond(db, proofs, workers, false));
        await setTrailRecording(db, true);
      }
      const ratio = median(rates.on) / median(rates.off);
      const decisionTable: BenchmarkTable = {
        title: "Audit trail: decisions per second, trail on and off",
        method:
          `${workers} concurrent officers deciding SUBMITTED media proofs on the PostgreSQL server (\`decideProof\`: the status change, the decision's row and, with the trail on, its audit entry, unchained, in one transaction; the sequencer chaining beside them, its work included), ` +
          `${perRound} decisions per round, median of ${rounds} alternating rounds.`,
        columns: ["trail", "decisions/s", "rounds"],
        rows: [
          ["on", Math.round(median(rates.on)), rates.on.map(Math.round).join(", ")],
          ["off (the benchmark database drops entries)", Math.round(median(rates.off)), rates.off.map(Math.round).join(", ")],
        ],
        notes: [`On / off: ${ratio.toFixed(2)} (the trail costs ${Math.round((1 - ratio) * 100)}% of decision throughput). Aim: at least 0.90.`],
      };

      const fillStarted = performance.now();
      const before = await chainHeadSeq(db);
      await fillTrail(db, Math.max(0, entries - before));
      const fillSeconds = (performance.now() - fillStarted) / 1_000;
      await sql`VACUUM ANALYZE aopd_audit_entry`.execute(db);
      const verification = await runVerifyAudit(url);
      // The replay of the trail against the tables, part of the run above, timed on its own.
      const replayStarted = performance.now();
      const replay = await replayTrailAgainstTables(db, auditKeyring());
      const replaySeconds = (performance.now() - replayStarted) / 1_000;
      const total = Math.max(entries, before);
      const verifyTable: BenchmarkTable = {
        title: `Audit trail: \`npm run verify-audit\` over ${total.toLocaleString("en")} entries`,
        method:
          `The trail filled through the append path in transactions of 1,000 entries (${Math.round(Math.max(0, entries - before) / fillSeconds)} entries/s), then \`npm run verify-audit\` run as its own process; ` +
          "its resident memory sampled at each progress line (every 100,000 entries) and every 100 ms for the peak.",
        columns: ["entries verified", "RSS (MiB)"],
        rows: verification.rssAt.map(({ verified, rss }) => [verified.toLocaleString("en"), mib(rss)]),
        notes: [
          `${Math.round(total / walkSeconds(verification.output)).toLocaleString("en")} entries/s over the walk as verify-audit times it (${verification.seconds.toFixed(1)} s with the process's start and connection); peak RSS ${mib(verification.peak)} MiB.`,
          `Of it, the replay of the trail against the tables (audit/replay-trail-against-tables.ts), timed alone: ${replaySeconds.toFixed(1)} s for ${replay.replayed.toLocaleString("en")} decision and hold entries among ${total.toLocaleString("en")}, ${replay.findings.length} differences.`,
          `Its answer: ${verification.output}`,
        ],
      };
      return [decisionTable, verifyTable, await pageReadTable(db, total, quick ? 50 : 200)];
    } finally {
      await database?.close();
    }
  },
};

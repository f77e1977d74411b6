import { sql, type Kysely } from "kysely";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { type AopdDatabase, type Database, encodeEventCursor, openDatabase, readEventLogBounds } from "@compliance-graph/aopd/internals";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";
import { startBenchStack, type BenchStack } from "../support/start-bench-stack.js";

const statuses = ["VERIFIED", "FAILED", "SUBMITTED"] as const;

/** One write of the varied workload: a new proof (three in five) or a status change of a pending one. */
type Write = (db: Kysely<AopdDatabase>, worker: number, index: number, pending: string[]) => Promise<void>;

const insertValues = (worker: number, index: number) => ({
  kind: "signature" as const,
  status: "PENDING" as const,
  customer_id: `bench-${(worker * 7 + index) % 500}`,
  asset: "DTI4H95J0R2X",
  address: `bc1qbench${worker}x${index}`,
  message: `I confirm that I control bc1qbench${worker}x${index}. Nonce: ${index}`,
  comment: index % 4 === 0 ? "reviewed by the onboarding team" : null,
  due_at: new Date(Date.now() + 3_600_000),
});

/** Today's path: the trigger records the event and wakes the replicas; one statement per write. */
const throughEventLog: Write = async (db, worker, index, pending) => {
  if (index % 5 >= 3 && pending.length > 0) {
    const id = pending.pop() as string;
    await db
      .updateTable("aopd_proof")
      .set({ status: statuses[index % 3], updated_at: new Date() })
      .where("id", "=", id)
      .where("status", "=", "PENDING")
      .execute();
    return;
  }
  pending.push((await db.insertInto("aopd_proof").values(insertValues(worker, index)).returning("id").executeTakeFirstOrThrow()).id);
};

/** The path before the event log: the write and a NOTIFY naming the proof, in one transaction. */
const throughNotifyOnly: Write = async (db, worker, index, pending) => {
  await db.transaction().execute(async (trx) => {
    if (index % 5 >= 3 && pending.length > 0) {
      const id = pending.pop() as string;
      const row = await trx
        .updateTable("aopd_proof")
        .set({ status: statuses[index % 3], updated_at: new Date() })
        .where("id", "=", id)
        .where("status", "=", "PENDING")
        .returning(["id", "status"])
        .executeTakeFirst();
      if (row) await sql`SELECT pg_notify('aopd_proof_events', ${JSON.stringify({ id: row.id, change: "STATUS_CHANGED", status: row.status })})`.execute(trx);
      return;
    }
    const row = await trx.insertInto("aopd_proof").values(insertValues(worker, index)).returning(["id", "status"]).executeTakeFirstOrThrow();
    await sql`SELECT pg_notify('aopd_proof_events', ${JSON.stringify({ id: row.id, change: "CREATED", status: row.status })})`.execute(trx);
    pending.push(row.id);
  });
};

async function writesPerSecond(db: Kysely<AopdDatabase>, write: Write, workers: number, perWorker: number): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      const pending: string[] = [];
      for (let index = 0; index < perWorker; index += 1) await write(db, worker, index, pending);
    }),
  );
  return (workers * perWorker) / ((performance.now() - started) / 1000);
}

async function setTriggers(db: Kysely<AopdDatabase>, enabled: boolean): Promise<void> {
  const action = enabled ? sql`ENABLE` : sql`DISABLE`;
  await sql`ALTER TABLE aopd_proof ${action} TRIGGER aopd_proof_created, ${action} TRIGGER aopd_proof_status_changed`.execute(db);
}

/** Writes `count` proofs in multi-row statements (each row one event) and waits until all are numbered. */
async function fillLog(db: Kysely<AopdDatabase>, count: number): Promise<void> {
  const before = Number((await readEventLogBounds(db)).sequencedThrough);
  for (let written = 0; written < count; written += 1_000) {
    await db
      .insertInto("aopd_proof")
      .values(Array.from({ length: Math.min(1_000, count - written) }, (_, index) => insertValues(999, written + index)))
      .execute();
  }
  while (Number((await readEventLogBounds(db)).sequencedThrough) < before + count) await new Promise((resolve) => setTimeout(resolve, 200));
}

/**
 * The proof event log's costs: write throughput against the path it replaced (a NOTIFY in the
 * writing transaction), and how fast a client catches up on a backlog, through a subscription with
 * `after` and through `proofEvents` pages. Live latency with subscribers is the
 * proof-subscriptions scenario.
 */
export const proofEventLogScenario: BenchmarkScenario = {
  name: "proof-event-log",
  async run({ quick }) {
    const workers = 16;
    const perWorker = quick ? 100 : 500;
    const rounds = quick ? 1 : 5;
    const backlog = quick ? 10_000 : 100_000;
    const url = await freshBenchDatabase("aopd_bench_event_log");
    let stack: BenchStack | undefined;
    let database: Database | undefined;
    try {
      // A running aopd replica numbers the events and serves the subscriptions, as in production.
      stack = await startBenchStack(url);
      database = await openDatabase({ databaseUrl: url, maxConnections: workers });
      const db = database.db;
      await writesPerSecond(db, throughEventLog, workers, 50);
      const rates = { log: [] as number[], notify: [] as number[] };
      for (let round = 0; round < rounds; round += 1) {
        rates.log.push(await writesPerSecond(db, throughEventLog, workers, perWorker));
        await setTriggers(db, false);
        rates.notify.push(await writesPerSecond(db, throughNotifyOnly, workers, perWorker));
        await setTriggers(db, true);
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
      const writeTable: BenchmarkTable = {
        title: "Proof event log: write throughput",
        method:
          `${workers} concurrent writers on the PostgreSQL server, ${workers * perWorker} writes per round (three in five create a proof, the rest change a pending proof's status), median of ${rounds} alternating rounds; ` +
          'writes per second. "Event log": one statement per write, the trigger records the event and an aopd replica numbers it; "NOTIFY only": the path the log replaced, the write and a NOTIFY in one transaction (triggers off).',
        columns: ["path", "writes/s", "rounds"],
        rows: [
          ["event log", Math.round(median(rates.log)), rates.log.map(Math.round).join(", ")],
          ["NOTIFY only (before)", Math.round(median(rates.notify)), rates.notify.map(Math.round).join(", ")],
        ],
        notes: [`Event log / before: ${(median(rates.log) / median(rates.notify)).toFixed(2)}. Aim: at least 0.90.`],
      };

      const { sequencedThrough: start } = await readEventLogBounds(db);
      await fillLog(db, backlog);
      const client = createClient({
        url: `${stack.base.replace("http", "ws")}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { bearer_token: stack.token },
        retryAttempts: 0,
      });
      const replayStarted = performance.now();
      let received = 0;
      await new Promise<void>((resolve, reject) => {
        const stop = client.subscribe(
          { query: "subscription($after: String) { aopdProofs(after: $after) { id status eventCursor } }", variables: { after: encodeEventCursor(start) } },
          {
            next: () => {
              received += 1;
              if (received === backlog) {
                stop();
                resolve();
              }
            },
            error: reject,
            complete: () => reject(new Error(`the replay completed after ${received} events`)),
          },
        );
      });
      const subscriptionRate = backlog / ((performance.now() - replayStarted) / 1000);
      await client.dispose();

      const pollStarted = performance.now();
      let polled = 0;
      let after: string | null = encodeEventCursor(start);
      while (polled < backlog) {
        const response: Response = await fetch(`${stack.base}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${stack.token}` },
          body: JSON.stringify({
            query: "query($after: String) { aopd { proofEvents(after: $after, limit: 1000) { events { cursor proof { id status } } endCursor } } }",
            variables: { after },
          }),
        });
        const page: { events: unknown[]; endCursor: string } = (
          (await response.json()) as { data: { aopd: { proofEvents: { events: unknown[]; endCursor: string } } } }
        ).data.aopd.proofEvents;
        polled += page.events.length;
        after = page.endCursor;
      }
      const pollRate = backlog / ((performance.now() - pollStarted) / 1000);
      const replayTable: BenchmarkTable = {
        title: `Proof event log: catching up on ${backlog.toLocaleString("en")} events`,
        method:
          "A backlog of events written in multi-row statements and numbered by the aopd replica, then read by one client through the gateway from the cursor before it; events per second, end to end.",
        columns: ["how", "events", "events/s"],
        rows: [
          ["subscription `aopdProofs(after:)` (graphql-ws)", backlog, Math.round(subscriptionRate)],
          ["`proofEvents(after:, limit: 1000)` pages over HTTP", polled, Math.round(pollRate)],
        ],
      };
      return [writeTable, replayTable];
    } finally {
      await database?.close();
      await stack?.stop();
    }
  },
};

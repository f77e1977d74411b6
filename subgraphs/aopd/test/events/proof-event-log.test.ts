import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultFilterLimits } from "@compliance-graph/filter";
import { pollUntil } from "@compliance-graph/test-kit";
import { openDatabase, type Database } from "../../src/database/open-database.js";
import { decodeEventCursor, encodeEventCursor } from "../../src/events/event-cursor.js";
import { pruneProofEvents } from "../../src/events/prune-proof-events.js";
import { readProofEventPage } from "../../src/events/read-proof-event-page.js";
import { selectProofEvents } from "../../src/events/select-proof-events.js";
import { readEventLogBounds, sequenceProofEvents } from "../../src/events/sequence-proof-events.js";
import { databaseDrivers, openTestDatabase } from "../support/test-database.js";

const limits = defaultFilterLimits;

function insertProof(db: Database["db"], customerId: string) {
  return db
    .insertInto("aopd_proof")
    .values({ kind: "signature", status: "PENDING", customer_id: customerId, asset: "DTI4H95J0R2X", address: `bc1q${customerId}`, message: "m" })
    .returning("id")
    .executeTakeFirstOrThrow();
}

/** Every numbered event after `after`, as `[position, proof id, change]`. */
async function log(db: Database["db"], after = "0") {
  const rows = await selectProofEvents(db, after).execute();
  return rows.map((row) => [Number(row.position), row.id, row.change] as const);
}

describe("the proof event log on two replicas of one PostgreSQL database", () => {
  let replicaA: Database & { databaseUrl?: string };
  let replicaB: Database;
  beforeAll(async () => {
    replicaA = await openTestDatabase("postgres", "eventlog");
    replicaB = await openDatabase({ databaseUrl: replicaA.databaseUrl!, maxConnections: 8 });
  });
  afterAll(async () => {
    await replicaB?.close();
    await replicaA?.close();
  });

  it("numbers a writer that commits late after what was already numbered, never before it", async () => {
    const { sequencedThrough } = await readEventLogBounds(replicaA.db);
    const start = Number(sequencedThrough);
    let releaseLate!: () => void;
    const lateMayCommit = new Promise<void>((resolve) => (releaseLate = resolve));
    let lateInserted!: () => void;
    const lateHasInserted = new Promise<void>((resolve) => (lateInserted = resolve));
    // The late writer inserts first (its event row exists before the early one's), commits last.
    const late = replicaA.db.transaction().execute(async (trx) => {
      const row = await insertProof(trx, "late");
      lateInserted();
      await lateMayCommit;
      return row.id;
    });
    await lateHasInserted;
    const early = (await insertProof(replicaB.db, "early")).id;
    await sequenceProofEvents(replicaB.db);
    expect(await log(replicaB.db, String(start))).toEqual([[start + 1, early, "CREATED"]]);
    releaseLate();
    const lateId = await late;
    await sequenceProofEvents(replicaA.db);
    expect(await log(replicaA.db, String(start))).toEqual([
      [start + 1, early, "CREATED"],
      [start + 2, lateId, "CREATED"],
    ]);
  });

  it("gives concurrent writers on both replicas a gapless total order that a concurrent reader sees grow only at its end", async () => {
    const { sequencedThrough } = await readEventLogBounds(replicaA.db);
    const start = Number(sequencedThrough);
    let writing = true;
    let allNumbered = false;
    const seen: number[] = [];
    // A reader as the hub reads: everything after the last position it saw, again and again.
    const reader = (async () => {
      let last = start;
      while (!allNumbered || last < Number((await readEventLogBounds(replicaB.db)).sequencedThrough)) {
        for (const [position] of await log(replicaB.db, String(last))) {
          seen.push(position);
          last = position;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const numbering = [replicaA, replicaB].map(async (replica) => {
      while (writing) {
        await sequenceProofEvents(replica.db);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    });
    const writers = Array.from({ length: 8 }, async (_, worker) => {
      const replica = worker % 2 === 0 ? replicaA : replicaB;
      const ids: string[] = [];
      for (let index = 0; index < 25; index += 1) {
        await replica.db.transaction().execute(async (trx) => {
          const { id } = await insertProof(trx, `w${worker}`);
          // Some transactions stay open a while, so commit order differs from insertion order.
          if (index % 5 === 0) await sql`SELECT pg_sleep(0.02)`.execute(trx);
          ids.push(id);
        });
        await replica.db.updateTable("aopd_proof").set({ status: "VERIFIED" }).where("id", "=", ids.at(-1)!).execute();
      }
      return ids;
    });
    const written = (await Promise.all(writers)).flat();
    writing = false;
    await Promise.all(numbering);
    await sequenceProofEvents(replicaA.db);
    allNumbered = true;
    await reader;

    const events = await log(replicaA.db, String(start));
    expect(events.map(([position]) => position)).toEqual(Array.from({ length: written.length * 2 }, (_, index) => start + index + 1));
    expect(seen).toEqual(events.map(([position]) => position));
    for (const id of written) {
      expect(events.filter(([, proof]) => proof === id).map(([, , change]) => change)).toEqual(["CREATED", "STATUS_CHANGED"]);
    }
  });

  it("prunes old events as a prefix and refuses a cursor before what is kept, naming the oldest cursor accepted", async () => {
    await insertProof(replicaA.db, "prune");
    await sequenceProofEvents(replicaA.db);
    const before = await readEventLogBounds(replicaA.db);
    // The clock of the database is what counts: once it has moved on, everything numbered so far is older than 0 s.
    const numberedAt = (await sql<{ now: Date }>`SELECT now() AS now`.execute(replicaA.db)).rows[0]!.now.getTime();
    await pollUntil(
      "the database clock moving on",
      async () => (await sql<{ now: Date }>`SELECT clock_timestamp() AS now`.execute(replicaA.db)).rows[0]!.now.getTime(),
      (now) => now > numberedAt,
      { intervalMs: 1 },
    );
    const pruned = await pruneProofEvents(replicaA.db, 0, 7);
    const after = await readEventLogBounds(replicaA.db);
    expect(pruned).toBe(Number(before.sequencedThrough) - Number(before.prunedThrough));
    expect(after.prunedThrough).toBe(before.sequencedThrough);
    expect(await log(replicaA.db)).toEqual([]);
    await expect(readProofEventPage(replicaA.db, { after: encodeEventCursor("1"), limit: 10 }, limits)).rejects.toMatchObject({
      extensions: { code: "BAD_USER_INPUT" },
      message: expect.stringContaining(encodeEventCursor(after.prunedThrough)),
    });
    const [id] = [(await insertProof(replicaA.db, "after-prune")).id];
    await sequenceProofEvents(replicaA.db);
    const page = await readProofEventPage(replicaA.db, { after: encodeEventCursor(after.prunedThrough), limit: 10 }, limits);
    expect(page.events.map((event) => event.proof.id)).toEqual([id]);
  });
});

describe.each(databaseDrivers)("reading the proof event log (%s)", (driver) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(driver, "eventpage");
  });
  afterAll(async () => {
    await database?.close();
  });

  it("pages through matching events with the proof as each change left it, and moves past events that do not match", async () => {
    const first = await insertProof(database.db, "alice");
    await insertProof(database.db, "bob");
    await database.db.updateTable("aopd_proof").set({ status: "VERIFIED" }).where("id", "=", first.id).execute();
    for (let index = 0; index < 3; index += 1) await insertProof(database.db, "bob");
    await sequenceProofEvents(database.db);
    const filter = { is: { any: { customerId: { eq: "alice" } } } };

    const page = await readProofEventPage(database.db, { limit: 1, filter }, limits);
    expect(page.events.map((event) => [event.change, event.proof.status])).toEqual([["CREATED", "PENDING"]]);
    expect(page.hasMore).toBe(true);
    const next = await readProofEventPage(database.db, { after: page.endCursor, limit: 10, filter }, limits);
    expect(next.events.map((event) => [event.change, event.proof.status, event.proof.id])).toEqual([["STATUS_CHANGED", "VERIFIED", first.id]]);
    // The page read to the end of the log: its end cursor is past the non-matching events too.
    expect(next.hasMore).toBe(false);
    expect(decodeEventCursor(next.endCursor!, "after")).toBe((await readEventLogBounds(database.db)).sequencedThrough);
    expect(next.events[0]?.cursor).toBe(next.events[0]?.proof.eventCursor);
  });

  it("records nothing for rows the demo seeder writes", async () => {
    const { seedProofs } = await import("../../src/seed/seed-proofs.js");
    const before = await readEventLogBounds(database.db);
    await seedProofs(database, { count: 50, seed: 77 });
    await sequenceProofEvents(database.db);
    expect(await readEventLogBounds(database.db)).toEqual(before);
  });

  it("refuses a cursor that is not one, a cursor past the log's end and a limit out of range, naming what is allowed", async () => {
    await expect(readProofEventPage(database.db, { after: "bm90IGEgY3Vyc29y", limit: 10 }, limits)).rejects.toMatchObject({
      extensions: { code: "BAD_USER_INPUT", field: "after" },
    });
    await expect(readProofEventPage(database.db, { after: encodeEventCursor("999999"), limit: 10 }, limits)).rejects.toMatchObject({
      extensions: { code: "BAD_USER_INPUT", field: "after" },
    });
    await expect(readProofEventPage(database.db, { limit: 0 }, limits)).rejects.toMatchObject({ message: "limit: must be from 1 to 1000." });
    await expect(readProofEventPage(database.db, { limit: 1001 }, limits)).rejects.toMatchObject({ extensions: { code: "BAD_USER_INPUT" } });
  });
});

import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/database/open-database.js";
import { selectProofEvents } from "../../src/events/select-proof-events.js";
import { readEventLogBounds, sequenceProofEvents } from "../../src/events/sequence-proof-events.js";
import { expirePendingProofs } from "../../src/proofs/expire-pending-proofs.js";
import { openTestDatabase } from "../support/test-database.js";
import { pollUntil } from "@compliance-graph/test-kit";

async function insertPending(database: Database, count: number, dueAt: Date): Promise<string[]> {
  const rows = await database.db
    .insertInto("aopd_proof")
    .values(
      Array.from({ length: count }, (_, i) => ({
        kind: "signature" as const,
        status: "PENDING" as const,
        customer_id: `C${i}`,
        asset: "DTI4H95J0R2X",
        address: `addr${i}`,
        message: "m",
        due_at: dueAt,
      })),
    )
    .returning("id")
    .execute();
  return rows.map((row) => row.id);
}

/** The log's events after `after`, numbered first, as `id:change:status`. */
async function eventsAfter(database: Database, after: string): Promise<string[]> {
  await sequenceProofEvents(database.db);
  const rows = await selectProofEvents(database.db, after).execute();
  return rows.map((row) => `${row.id}:${row.change}:${row.status}`);
}

describe("expiry and proof events on two replicas of one PostgreSQL database", () => {
  let replicaA: Database & { databaseUrl?: string };
  let replicaB: Database;
  beforeAll(async () => {
    replicaA = await openTestDatabase("postgres", "expiry");
    replicaB = await openDatabase({ databaseUrl: replicaA.databaseUrl! });
  });
  afterAll(async () => {
    await replicaB?.close();
    await replicaA?.close();
  });

  it("expires every due proof exactly once, with one event each, when replicas race", async () => {
    const due = await insertPending(replicaA, 300, new Date(Date.now() - 60_000));
    const notDue = await insertPending(replicaA, 5, new Date(Date.now() + 3_600_000));
    await sequenceProofEvents(replicaA.db);
    const { sequencedThrough } = await readEventLogBounds(replicaA.db);
    const runs = await Promise.all([replicaA, replicaB, replicaA, replicaB].map((replica) => expirePendingProofs(replica.db, 120)));
    const again = await Promise.all([expirePendingProofs(replicaA.db), expirePendingProofs(replicaB.db)]);
    const expired = [...runs, ...again].flat().map((row) => row.id);
    expect(new Set(expired).size).toBe(expired.length);
    expect([...expired].sort()).toEqual([...due].sort());
    expect((await eventsAfter(replicaB, sequencedThrough)).sort()).toEqual(due.map((id) => `${id}:STATUS_CHANGED:EXPIRED`).sort());
    const stillPending = await replicaA.db.selectFrom("aopd_proof").select("id").where("status", "=", "PENDING").execute();
    expect(stillPending.map((row) => row.id).sort()).toEqual([...notDue].sort());
  });

  it("records nothing for a rolled-back write and one event for a committed one", async () => {
    await sequenceProofEvents(replicaA.db);
    const { sequencedThrough } = await readEventLogBounds(replicaA.db);
    await replicaA.db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto("aopd_proof")
          .values({ kind: "signature", status: "PENDING", customer_id: "rolled-back", asset: "DTI4H95J0R2X", address: "a", message: "m" })
          .execute();
        throw new Error("roll back");
      })
      .catch(() => undefined);
    const [committed] = await insertPending(replicaB, 1, new Date(Date.now() + 60_000));
    expect(await eventsAfter(replicaA, sequencedThrough)).toEqual([`${committed}:CREATED:PENDING`]);
  });

  it("records no event for a change that leaves the status as it was", async () => {
    const [id] = await insertPending(replicaA, 1, new Date(Date.now() + 60_000));
    await sequenceProofEvents(replicaA.db);
    const { sequencedThrough } = await readEventLogBounds(replicaA.db);
    await replicaA.db.updateTable("aopd_proof").set({ comment: "edited", signature_attempts: 3 }).where("id", "=", id!).execute();
    await replicaA.db.updateTable("aopd_proof").set({ status: "PENDING" }).where("id", "=", id!).execute();
    expect(await eventsAfter(replicaA, sequencedThrough)).toEqual([]);
  });
});

describe("expiry and proof events on PGlite", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase("pglite", "expiry");
  });
  afterAll(async () => {
    await database?.close();
  });

  it("expires due proofs and records their events only on commit", async () => {
    const due = await insertPending(database, 3, new Date(Date.now() - 1_000));
    await sequenceProofEvents(database.db);
    const { sequencedThrough } = await readEventLogBounds(database.db);
    await database.db
      .transaction()
      .execute(async (trx) => {
        await sql`UPDATE aopd_proof SET status = 'VERIFIED'`.execute(trx);
        throw new Error("roll back");
      })
      .catch(() => undefined);
    const expired = await expirePendingProofs(database.db);
    expect(expired.map((row) => row.id).sort()).toEqual([...due].sort());
    expect((await eventsAfter(database, sequencedThrough)).sort()).toEqual(due.map((id) => `${id}:STATUS_CHANGED:EXPIRED`).sort());
  });
});

describe("the expiry job of a running subgraph", () => {
  it("expires a pending proof past its due time without anyone asking", async () => {
    const { startTestAopd } = await import("../support/start-test-aopd.js");
    const aopd = await startTestAopd("pglite", { config: { expiryIntervalSeconds: 1 } });
    try {
      const [row] = await aopd.services.db
        .insertInto("aopd_proof")
        .values({
          kind: "signature",
          status: "PENDING",
          customer_id: "C",
          asset: "DTI4H95J0R2X",
          address: "a",
          message: "m",
          due_at: new Date(Date.now() + 500),
        })
        .returning("id")
        .execute();
      const readStatus = async () =>
        (await aopd.services.db.selectFrom("aopd_proof").select("status").where("id", "=", row!.id).executeTakeFirstOrThrow()).status;
      expect(await pollUntil("the expiry job's pass", readStatus, (status) => status !== "PENDING")).toBe("EXPIRED");
    } finally {
      await aopd.close();
    }
  });
});

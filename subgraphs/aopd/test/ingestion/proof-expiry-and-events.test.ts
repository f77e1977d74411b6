import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/database/open-database.js";
import { proofEventChannel, publishProofEvent, parseProofEvent, type ProofEvent } from "../../src/events/proof-event.js";
import { expirePendingProofs } from "../../src/ingestion/expire-pending-proofs.js";
import { openTestDatabase } from "../support/test-database.js";

async function insertPending(database: Database, count: number, dueAt: Date): Promise<string[]> {
  const rows = await database.db
    .insertInto("aopd_proof")
    .values(Array.from({ length: count }, (_, i) => ({ kind: "signature" as const, status: "PENDING" as const, customer_id: `C${i}`, asset: "DTI4H95J0R2X", address: `addr${i}`, message: "m", due_at: dueAt })))
    .returning("id")
    .execute();
  return rows.map((row) => row.id);
}

/** Collects the proof events a LISTEN connection receives. */
async function listen(databaseUrl: string): Promise<{ events: ProofEvent[]; close(): Promise<void> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const events: ProofEvent[] = [];
  client.on("notification", (message) => {
    const event = message.payload ? parseProofEvent(message.payload) : undefined;
    if (event) events.push(event);
  });
  await client.query(`LISTEN ${proofEventChannel}`);
  return { events, close: () => client.end() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

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
    const listener = await listen(replicaA.databaseUrl!);
    const due = await insertPending(replicaA, 300, new Date(Date.now() - 60_000));
    const notDue = await insertPending(replicaA, 5, new Date(Date.now() + 3_600_000));
    const runs = await Promise.all([replicaA, replicaB, replicaA, replicaB].map((replica) => expirePendingProofs(replica.db, 120)));
    const again = await Promise.all([expirePendingProofs(replicaA.db), expirePendingProofs(replicaB.db)]);
    const expired = [...runs, ...again].flat().map((row) => row.id);
    await settle();
    await listener.close();
    expect(new Set(expired).size).toBe(expired.length);
    expect([...expired].sort()).toEqual([...due].sort());
    expect(listener.events.filter((event) => event.status === "EXPIRED").map((event) => event.id).sort()).toEqual([...due].sort());
    const stillPending = await replicaA.db.selectFrom("aopd_proof").select("id").where("status", "=", "PENDING").execute();
    expect(stillPending.map((row) => row.id).sort()).toEqual([...notDue].sort());
  });

  it("publishes nothing for a rolled-back write and an event for a committed one", async () => {
    const listener = await listen(replicaA.databaseUrl!);
    await replicaA.db
      .transaction()
      .execute(async (trx) => {
        await publishProofEvent(trx, { id: "00000000-0000-4000-8000-00000000dead", change: "CREATED", status: "PENDING" });
        throw new Error("roll back");
      })
      .catch(() => undefined);
    await replicaB.db.transaction().execute((trx) => publishProofEvent(trx, { id: "00000000-0000-4000-8000-00000000beef", change: "CREATED", status: "PENDING" }));
    await settle();
    await listener.close();
    expect(listener.events.map((event) => event.id)).toEqual(["00000000-0000-4000-8000-00000000beef"]);
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

  it("expires due proofs and notifies listeners of the same instance only on commit", async () => {
    const events: ProofEvent[] = [];
    const unlisten = await database.pglite!.listen(proofEventChannel, (payload) => {
      const event = parseProofEvent(payload);
      if (event) events.push(event);
    });
    const due = await insertPending(database, 3, new Date(Date.now() - 1_000));
    await database.db
      .transaction()
      .execute(async (trx) => {
        await sql`UPDATE aopd_proof SET comment = 'x'`.execute(trx);
        await publishProofEvent(trx, { id: due[0]!, change: "STATUS_CHANGED", status: "VERIFIED" });
        throw new Error("roll back");
      })
      .catch(() => undefined);
    const expired = await expirePendingProofs(database.db);
    await settle();
    await unlisten();
    expect(expired.map((row) => row.id).sort()).toEqual([...due].sort());
    expect(events.map((event) => `${event.id}:${event.status}`).sort()).toEqual(due.map((id) => `${id}:EXPIRED`).sort());
  });
});

describe("the expiry job of a running subgraph", () => {
  it("expires a pending proof past its due time without anyone asking", async () => {
    const { startTestAopd } = await import("../support/start-test-aopd.js");
    const aopd = await startTestAopd("pglite", { config: { expiryIntervalSeconds: 1 } });
    try {
      const [row] = await aopd.services.db
        .insertInto("aopd_proof")
        .values({ kind: "signature", status: "PENDING", customer_id: "C", asset: "DTI4H95J0R2X", address: "a", message: "m", due_at: new Date(Date.now() + 500) })
        .returning("id")
        .execute();
      let status = "PENDING";
      for (let attempt = 0; attempt < 50 && status === "PENDING"; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        status = (await aopd.services.db.selectFrom("aopd_proof").select("status").where("id", "=", row!.id).executeTakeFirstOrThrow()).status;
      }
      expect(status).toBe("EXPIRED");
    } finally {
      await aopd.close();
    }
  });
});
